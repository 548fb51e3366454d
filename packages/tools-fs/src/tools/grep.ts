/**
 * `grep`: lines matching a JavaScript regular expression in the text files under a folder
 * (or in one file) inside the root, optionally only files matching a glob. It stops after
 * `maxResults` matches and says so; binary files and files over `grepMaxFileBytes` are
 * skipped and counted. Each matching line is shown with its path and 1-based line number.
 * Every file is read through a descriptor checked to be inside the root; one that turns out
 * to be elsewhere (it was swapped for a link while the search ran) is left out.
 */
import { defineTool, type ContentBlock } from '@rein/kernel'
import { FsToolError, INVALID_PATTERN, TOOL_DENIED } from '../codes.js'
import type { Config } from '../config.js'
import { looksBinary } from '../lines.js'
import { changed, FOR, openInside } from '../opened.js'
import type { Root } from '../root.js'
import { checkPattern, findFiles } from '../walk.js'

export interface GrepArgs { pattern: string, path?: string, glob?: string, maxResults?: number, ignoreCase?: boolean }
export interface GrepMatch { path: string, line: number, text: string }
export interface GrepValue {
  matches: GrepMatch[]
  filesSearched: number
  /** Binary files and files over the size cap. */
  filesSkipped: number
  /** The search stopped at `maxResults`; more matches exist. */
  truncated: boolean
}

/** Longer matching lines are cut to this many characters (the line number still finds them). */
const MAX_LINE_CHARS = 500

const valueSchema = {
  type: 'object',
  required: ['matches', 'filesSearched', 'filesSkipped', 'truncated'],
  properties: {
    matches: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'line', 'text'],
        properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 }, text: { type: 'string' } },
        additionalProperties: false,
      },
    },
    filesSearched: { type: 'integer', minimum: 0 },
    filesSkipped: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
  },
  additionalProperties: false,
}

/** The `grep` tool for `root`. Concurrency-safe and idempotent. */
export function grepTool(root: Root, config: Config) {
  return defineTool<GrepArgs, GrepValue>({
    name: 'grep',
    description: 'Search file contents in the workspace with a JavaScript regular expression. path is a folder or a '
      + 'file (default "."), glob filters file paths (e.g. "**/*.ts"). Returns path, line number and line text for '
      + `each match, at most maxResults (default ${config.grepResults}, at most ${config.maxEntries}).`,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression (JavaScript syntax), matched against each line.' },
        path: { type: 'string', description: 'Folder or file to search, relative to the workspace root (default ".").' },
        glob: { type: 'string', description: 'Only search files whose path (relative to path) matches this glob.' },
        maxResults: { type: 'integer', minimum: 1, maximum: config.maxEntries, description: 'Stop after this many matches.' },
        ignoreCase: { type: 'boolean', description: 'Match case-insensitively (default false).' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    isConcurrencySafe: () => true,
    idempotent: true,
    async execute(args, exec) {
      let regex: RegExp
      try {
        regex = new RegExp(args.pattern, args.ignoreCase ? 'i' : '')
      } catch (error) {
        throw new FsToolError(INVALID_PATTERN, `"${args.pattern}" is not a valid regular expression: ${(error as Error).message}`)
      }
      if (args.glob !== undefined) checkPattern(args.glob, root)
      const { real } = await root.resolve(args.path ?? '.')
      const start = await openInside(root, real, FOR.look, args.path ?? '.')
      const what = await start.stat().finally(() => start.close())
      if (what.isSymbolicLink()) throw changed(args.path ?? '.')
      const files = what.isDirectory()
        ? await findFiles(real, args.glob ?? '**/*', config.ignore, exec.signal)
        : [real]
      const limit = args.maxResults ?? config.grepResults
      const value: GrepValue = { matches: [], filesSearched: 0, filesSkipped: 0, truncated: false }
      for (const file of files) {
        exec.signal.throwIfAborted()
        const text = await readText(root, file, config.grepMaxFileBytes)
        if (text === null) continue
        if (text === undefined) {
          value.filesSkipped++
          continue
        }
        value.filesSearched++
        const lines = text.split(/\r?\n/)
        if (lines[lines.length - 1] === '') lines.pop()
        for (let i = 0; i < lines.length; i++) {
          if (!regex.test(lines[i])) continue
          if (value.matches.length === limit) {
            value.truncated = true
            return value
          }
          value.matches.push({ path: root.show(file), line: i + 1, text: clip(lines[i]) })
        }
      }
      return value
    },
  })
}

/** The file's text; undefined when it is too large, binary, not a file or gone; null when it is outside. */
async function readText(root: Root, file: string, maxBytes: number): Promise<string | undefined | null> {
  let handle
  try {
    handle = await openInside(root, file, FOR.read, file)
  } catch (error) {
    return (error as { code?: unknown }).code === TOOL_DENIED ? null : undefined
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile() || stat.size > maxBytes || await looksBinary(handle)) return undefined
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]` : line
}

function render(args: GrepArgs, v: GrepValue): ContentBlock[] {
  const lines = v.matches.map((m) => `${m.path}:${m.line}: ${m.text}`)
  const head = v.matches.length === 0
    ? `No matches for /${args.pattern}/ in ${v.filesSearched} files.`
    : `${v.matches.length}${v.truncated ? '+' : ''} matches for /${args.pattern}/ in ${v.filesSearched} files searched:`
  const notes: string[] = []
  if (v.truncated) notes.push(`[stopped after ${v.matches.length} matches; narrow the pattern, path or glob, or raise maxResults]`)
  if (v.filesSkipped > 0) notes.push(`[${v.filesSkipped} binary or oversized files skipped]`)
  return [{ type: 'text', text: [head, ...lines, ...notes].join('\n') }]
}
