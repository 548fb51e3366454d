/**
 * Finding files under a folder inside the root by glob, for `glob` and `grep`. Symbolic
 * links are never followed (one could lead out of the root, or into a loop), patterns that
 * are absolute or climb with `..` are refused, and every result is checked to lie inside the
 * folder searched. Results are absolute real paths, sorted, so output is deterministic. The
 * walk itself goes by path, so a folder swapped for a link while it runs can show it names
 * from outside: `keepInside` drops every result that is not, when checked, a file inside the root.
 */
import { lstat } from 'node:fs/promises'
import path from 'node:path'
import { glob } from 'tinyglobby'
import { FsToolError, INVALID_PATTERN, TOOL_DENIED } from './codes.js'
import { FOR, openInside, within } from './opened.js'
import { inside, type Root } from './root.js'

/** Folders checked at once by `keepInside`. */
const CHECK_WIDTH = 8

const CLIMBS = /(^|[\\/{,])\.\.($|[\\/},])/

/** Refuses a glob pattern that could reach outside the folder it is matched in. */
export function checkPattern(pattern: string, root: Root): void {
  if (pattern === '') throw new FsToolError(INVALID_PATTERN, 'the glob pattern is empty')
  if (path.isAbsolute(pattern) || pattern.startsWith('~')) {
    throw new FsToolError(TOOL_DENIED, `glob pattern "${pattern}" is refused: patterns are relative to the root ${root.path}; `
      + 'pass a folder as path instead')
  }
  if (CLIMBS.test(pattern)) {
    throw new FsToolError(TOOL_DENIED, `glob pattern "${pattern}" is refused: ".." would lead out of the folder searched `
      + `(the root is ${root.path})`)
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
    throw new FsToolError(INVALID_PATTERN, `glob pattern "${pattern}" could not be used: ${(error as Error).message}`)
  }
  signal.throwIfAborted()
  return found.map((file) => path.normalize(file)).filter((file) => inside(file, dir)).sort()
}

/**
 * The files of `files` that are, when checked, regular files inside the root. Each folder is
 * opened once (never through a link at its end) and checked to be inside; its names are then
 * looked up in that open folder, without following a link.
 */
export async function keepInside(root: Root, files: readonly string[], signal: AbortSignal): Promise<string[]> {
  const byFolder = new Map<string, string[]>()
  for (const file of files) {
    const folder = path.dirname(file)
    const names = byFolder.get(folder)
    if (names) names.push(file)
    else byFolder.set(folder, [file])
  }
  const kept = new Set<string>()
  const folders = [...byFolder]
  let next = 0
  await Promise.all(Array.from({ length: Math.min(CHECK_WIDTH, folders.length) }, async () => {
    while (next < folders.length) {
      signal.throwIfAborted()
      const [folder, inFolder] = folders[next++]
      for (const file of await filesInside(root, folder, inFolder)) kept.add(file)
    }
  }))
  return files.filter((file) => kept.has(file))
}

/** Those of `files` (all in `folder`) that are regular files, if `folder` opens inside the root. */
async function filesInside(root: Root, folder: string, files: string[]): Promise<string[]> {
  const dir = await openInside(root, folder, FOR.folder, folder).catch(() => undefined)
  if (!dir) return []
  try {
    const stats = await Promise.all(files.map((file) => lstat(within(dir, path.basename(file))).catch(() => undefined)))
    return files.filter((_, at) => stats[at]?.isFile())
  } finally {
    await dir.close()
  }
}
