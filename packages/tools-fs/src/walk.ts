/**
 * Finding files under a folder inside the root by glob, for `glob` and `grep`. Symbolic
 * links are never followed (one could lead out of the root, or into a loop), patterns that
 * are absolute or climb with `..` are refused, and every result is checked to lie inside the
 * folder searched. Results are absolute real paths, sorted, so output is deterministic. The
 * walk itself goes by path, so a folder swapped for a link while it runs can show names from
 * outside: callers check what they found (`keepInside`) or open it checked (`openInside`).
 */
import path from 'node:path'
import { glob } from 'tinyglobby'
import { CodedError } from '@rein/kernel'
import { inside, type Root } from '@rein/workspace'
import { INVALID_PATTERN, TOOL_DENIED } from './codes.js'

/**
 * A segment that starts with `..`: after the start (or a leading `!`), a separator, or the
 * start of an alternative in braces or an extglob. `..` alone climbs, and so may a pattern
 * segment that can match it (`..?(x)`, `..*`), which makes the walker start in the parent.
 */
const CLIMBS = /(^!?|[\\/{,(|])\.\./

/** Refuses a glob pattern that could reach outside the folder it is matched in. */
export function checkPattern(pattern: string, root: Root): void {
  if (pattern === '') throw new CodedError('the glob pattern is empty', INVALID_PATTERN)
  if (path.isAbsolute(pattern) || pattern.startsWith('~')) {
    throw new CodedError(`glob pattern "${pattern}" is refused: patterns are relative to the root ${root.path}; `
      + 'pass a folder as path instead', TOOL_DENIED)
  }
  if (CLIMBS.test(pattern)) {
    throw new CodedError(`glob pattern "${pattern}" is refused: a segment that starts with ".." could lead out of the folder searched `
      + `(the root is ${root.path})`, TOOL_DENIED)
  }
}

/** Every file under `dir` (a real folder inside the root) matching `pattern`, minus `ignore`. */
export async function findFiles(dir: string, pattern: string, ignore: readonly string[], signal: AbortSignal): Promise<string[]> {
  let found: string[]
  try {
    found = await glob(pattern, {
      cwd: dir,
      absolute: true,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      ignore: [...ignore],
      signal,
    })
  } catch (error) {
    signal.throwIfAborted()
    throw new CodedError(`glob pattern "${pattern}" could not be used: ${(error as Error).message}`, INVALID_PATTERN)
  }
  signal.throwIfAborted()
  return found.map((file) => path.normalize(file)).filter((file) => inside(file, dir)).sort()
}

