/**
 * `grep`: lines matching a JavaScript regular expression in the text files under a folder
 * (or in one file) inside the root, optionally only files matching a glob. It keeps the first
 * `maxResults` matches and says exactly how many more there are; binary files and files over
 * `grepMaxFileBytes` are skipped and counted. Files are opened on this thread, each through a
 * descriptor checked to be inside the root (one found elsewhere is left out); only their text
 * goes to the matcher, which runs the regex in a worker that an abort or a deadline ends.
 */
import { CodedError, defineTool, type ContentBlock } from '@rein/kernel'
import { headItems } from '@rein/retention'
import { changed, FOR, openInside, TOOL_DENIED, type Root } from '@rein/workspace'
import { INVALID_PATTERN } from '../codes.js'
import type { Config } from '../config.js'
import { looksBinary } from '../lines.js'
import type { Matcher } from '../matcher.js'
import { checkPattern, findFiles } from '../walk.js'

export interface GrepArgs { pattern: string, path?: string, glob?: string, maxResults?: number, ignoreCase?: boolean }
export interface GrepMatch { path: string, line: number, text: string }
export interface GrepValue {
  /** The first `maxResults` matches, in path and line order. */
  matches: GrepMatch[]
  filesSearched: number
  /** Binary files and files over the size cap. */
  filesSkipped: number
  /** More matches exist than are listed. */
  truncated: boolean
  /** Exactly how many matches are not listed; present when `truncated`. */
  omitted?: number
}

/** Texts handed to the matcher at once: fewer round trips, bounded memory (one file may exceed it). */
const BATCH_CHARS = 1 << 20

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
    omitted: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
}

/** The `grep` tool for `root`, matching with `matcher`. Concurrency-safe and idempotent. */
export function grepTool(root: Root, config: Config, matcher: Matcher) {
  return defineTool<GrepArgs, GrepValue>({
    name: 'grep',
    description: 'Search file contents in the workspace with a JavaScript regular expression. path is a folder or a '
      + 'file (default "."), glob filters file paths (e.g. "**/*.ts"). Returns path, line number and line text for '
      + `each match, the first maxResults (default ${config.grepResults}, at most ${config.maxEntries}), and how many more there are.`,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'JavaScript regular expression, tested against each line.' },
        path: { type: 'string', description: 'Folder or file to search, relative to the workspace root (default ".").' },
        glob: { type: 'string', description: 'Only search files whose path (relative to path) matches this glob.' },
        maxResults: { type: 'integer', minimum: 1, maximum: config.maxEntries, description: 'List at most this many matches.' },
        ignoreCase: { type: 'boolean', description: 'Match case-insensitively (default false).' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render: (args, value) => render(args, value, config.maxEntries) },
    isConcurrencySafe: () => true,
    idempotent: true,
    async execute(args, exec) {
      const flags = args.ignoreCase ? 'i' : ''
      try {
        new RegExp(args.pattern, flags) // compiling never backtracks; only matching runs in the worker
      } catch (error) {
        throw new CodedError(`"${args.pattern}" is not a valid regular expression: ${(error as Error).message}`, INVALID_PATTERN)
      }
      if (args.glob !== undefined) checkPattern(args.glob, root)
      const { real } = await root.resolve(args.path ?? '.')
      const start = await openInside(root, real, FOR.look, args.path ?? '.')
      const what = await start.stat().finally(() => start.close())
      if (what.isSymbolicLink()) throw changed(root, args.path ?? '.')
      const files = what.isDirectory()
        ? await findFiles(real, args.glob ?? '**/*', config.ignore, exec.signal)
        : [real]
      const limit = args.maxResults ?? config.grepResults
      const matches: GrepMatch[] = []
      let omitted = 0
      let filesSearched = 0
      let filesSkipped = 0
      let batch: { paths: string[], texts: string[], chars: number } = { paths: [], texts: [], chars: 0 }
      const flush = async () => {
        if (batch.texts.length === 0) return
        const { paths, texts } = batch
        batch = { paths: [], texts: [], chars: 0 }
        const found = await matcher.match({ pattern: args.pattern, flags, texts }, exec.signal)
        const kept = headItems(found, limit - matches.length)
        for (const f of kept.items) matches.push({ path: root.show(paths[f.file]), line: f.line, text: f.text })
        omitted += kept.omitted
      }
      for (const file of files) {
        exec.signal.throwIfAborted()
        const text = await readText(root, file, config.grepMaxFileBytes)
        if (text === null) continue
        if (text === undefined) {
          filesSkipped++
          continue
        }
        filesSearched++
        batch.paths.push(file)
        batch.texts.push(text)
        batch.chars += text.length
        if (batch.chars >= BATCH_CHARS) await flush()
      }
      await flush()
      const value: GrepValue = { matches, filesSearched, filesSkipped, truncated: omitted > 0 }
      if (omitted > 0) value.omitted = omitted
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

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** A head line with the exact total, the listed matches, and a notice naming exactly how many are not listed. */
function render(args: GrepArgs, v: GrepValue, maxEntries: number): ContentBlock[] {
  const searched = `in ${count(v.filesSearched, 'file', 'files')} searched`
  const omitted = v.omitted ?? 0
  const head = v.matches.length === 0 && omitted === 0
    ? `No matches for /${args.pattern}/ ${searched}.`
    : omitted === 0
      ? `${count(v.matches.length, 'match', 'matches')} for /${args.pattern}/ ${searched}:`
      : `${count(v.matches.length + omitted, 'match', 'matches')} for /${args.pattern}/ ${searched}; the first ${v.matches.length} ${v.matches.length === 1 ? 'is' : 'are'} listed:`
  const lines = v.matches.map((m) => `${m.path}:${m.line}: ${m.text}`)
  const notes: string[] = []
  if (omitted > 0) {
    const raise = v.matches.length < maxEntries ? `, or raise maxResults (up to ${maxEntries})` : ''
    notes.push(`[${count(omitted, 'more match', 'more matches')} not listed; narrow the pattern, path or glob${raise}]`)
  }
  if (v.filesSkipped > 0) notes.push(`[${count(v.filesSkipped, 'binary or oversized file', 'binary or oversized files')} skipped]`)
  return [{ type: 'text', text: [head, ...lines, ...notes].join('\n') }]
}
