/**
 * `read_file`: a window of a text file, by lines. `offset` is the 1-based first line and
 * `limit` the number of lines; the window is also capped in bytes, and the result always
 * says the file's total lines and bytes and, when there is more, the offset to continue
 * from. Reading the windows in turn reproduces a UTF-8 file byte for byte; a window that is
 * not UTF-8 says so (`notUtf8`). The file is read through a descriptor checked to be inside
 * the root (`openInside`).
 */
import { CodedError, defineTool, type ContentBlock } from '@rein/kernel'
import { FOR, openInside, type Root } from '@rein/workspace'
import { NOT_TEXT, WRONG_TYPE } from '../codes.js'
import type { Config } from '../config.js'
import { looksBinary, readWindow } from '../lines.js'

export interface ReadFileArgs { path: string, offset?: number, limit?: number }

export interface ReadFileValue {
  path: string
  content: string
  startLine: number
  endLine: number
  totalLines: number
  totalBytes: number
  /** More of the file exists after `endLine`, or line `endLine` was cut. */
  truncated: boolean
  /** The `offset` that continues after this window; absent at the end of the file. */
  nextOffset?: number
  /** Line `endLine` was longer than the byte cap and only its start is in `content`. */
  lineCut?: boolean
  /** The window is not valid UTF-8: `content` shows each bad byte sequence as U+FFFD. */
  notUtf8?: boolean
}

const valueSchema = {
  type: 'object',
  required: ['path', 'content', 'startLine', 'endLine', 'totalLines', 'totalBytes', 'truncated'],
  properties: {
    path: { type: 'string' },
    content: { type: 'string' },
    startLine: { type: 'integer', minimum: 1 },
    endLine: { type: 'integer', minimum: 0 },
    totalLines: { type: 'integer', minimum: 0 },
    totalBytes: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
    nextOffset: { type: 'integer', minimum: 2 },
    lineCut: { type: 'boolean' },
    notUtf8: { type: 'boolean' },
  },
  additionalProperties: false,
}

/** The `read_file` tool for `root`. Concurrency-safe and idempotent. */
export function readFileTool(root: Root, config: Config) {
  return defineTool<ReadFileArgs, ReadFileValue>({
    name: 'read_file',
    description: `Read a text file inside the workspace by lines. offset is the 1-based first line (default 1), `
      + `limit the number of lines (default and at most ${config.maxReadLines}); at most ${config.maxReadBytes} bytes `
      + 'per call. The result gives the total lines and bytes, and nextOffset when there is more to read.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root.' },
        offset: { type: 'integer', minimum: 1, description: '1-based line to start at.' },
        limit: { type: 'integer', minimum: 1, maximum: config.maxReadLines, description: 'Number of lines.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    isConcurrencySafe: () => true,
    idempotent: true,
    async execute(args, exec) {
      const { real, shown } = await root.resolve(args.path)
      const file = await openInside(root, real, FOR.read, args.path)
      try {
        const stat = await file.stat()
        if (stat.isDirectory()) throw new CodedError(`"${shown}" is a directory; use list_dir`, WRONG_TYPE)
        if (!stat.isFile()) throw new CodedError(`"${shown}" is not a regular file`, WRONG_TYPE)
        if (await looksBinary(file)) throw new CodedError(`"${shown}" looks binary (it contains NUL bytes); read_file reads text only`, NOT_TEXT)
        const window = await readWindow(file, args.offset ?? 1, args.limit ?? config.maxReadLines, config.maxReadBytes, exec.signal)
        const more = window.endLine < window.totalLines
        const value: ReadFileValue = {
          path: shown,
          content: window.text,
          startLine: window.startLine,
          endLine: window.endLine,
          totalLines: window.totalLines,
          totalBytes: window.totalBytes,
          truncated: more || window.lineCut,
        }
        if (more) value.nextOffset = window.endLine + 1
        if (window.lineCut) value.lineCut = true
        if (window.notUtf8) value.notUtf8 = true
        return value
      } finally {
        await file.close()
      }
    },
  })
}

/** A header line, the text, and a note saying how to read on. */
function render(_args: ReadFileArgs, v: ReadFileValue): ContentBlock[] {
  const range = v.endLine >= v.startLine ? `lines ${v.startLine}-${v.endLine}` : 'no lines'
  const lines = [`${v.path}: ${range} of ${v.totalLines} (${v.totalBytes} bytes)`]
  if (v.endLine < v.startLine && v.startLine > 1 && v.totalLines > 0) lines.push(`[offset ${v.startLine} is past the end: the file has ${v.totalLines} lines]`)
  let text = lines.join('\n') + '\n' + v.content
  if (v.lineCut) text += `\n[line ${v.endLine} is longer than the read limit and was cut; use grep to find text in it]`
  if (v.notUtf8) text += '\n[these lines are not valid UTF-8: each byte sequence that is not is shown as \uFFFD; '
    + 'edit_file cannot edit this file, write_file can replace it whole]'
  if (v.nextOffset !== undefined) text += `\n[more after line ${v.endLine}: call read_file with offset ${v.nextOffset}]`
  return [{ type: 'text', text }]
}
