/**
 * `edit_file`: an exact string replacement in a text file inside the root. The match is
 * literal (no regex, no `$` patterns). Without `replace_all` the old string must occur exactly
 * once, so an edit never lands in a place the model did not mean. Only UTF-8 text is edited:
 * any other byte would not survive decoding and encoding, so such a file is refused and left
 * alone. The file is read through a descriptor checked to be inside the root (`openInside`)
 * and replaced whole through a new file renamed over it (`replaceFile`), so it is never seen
 * cut short. A file over `maxEditBytes` is refused before it is read. A file that changed
 * after it was read (another name, size or modification time) is refused and left as it is,
 * so a concurrent write is never silently undone. Exclusive.
 */
import type { BigIntStats } from 'node:fs'
import { stat, type FileHandle } from 'node:fs/promises'
import { CodedError, defineTool, type ContentBlock } from '@rein/kernel'
import { explain, FOR, kindOf, openInside, replaceFile, type Root } from '@rein/workspace'
import { EDIT_CHANGED, EDIT_NO_CHANGE, EDIT_NO_MATCH, EDIT_NOT_UNIQUE, NOT_TEXT, TOO_LARGE, WRONG_TYPE } from '../codes.js'
import type { Config } from '../config.js'
import { looksBinary } from '../lines.js'
import { decodeUtf8 } from '../text.js'

export interface EditFileArgs { path: string, old_string: string, new_string: string, replace_all?: boolean }
export interface EditFileValue { path: string, replacements: number, bytes: number }

const valueSchema = {
  type: 'object',
  required: ['path', 'replacements', 'bytes'],
  properties: { path: { type: 'string' }, replacements: { type: 'integer', minimum: 1 }, bytes: { type: 'integer', minimum: 0 } },
  additionalProperties: false,
}

/** Points inside one edit where a test can act; the plugin never sets them. */
export interface EditSeams {
  /** Runs after the file was read and the new content made, before the file is replaced. */
  afterRead?: () => Promise<void>
}

/** The `edit_file` tool for `root`. Exclusive, not idempotent. */
export function editFileTool(root: Root, config: Pick<Config, 'maxEditBytes'>, seams: EditSeams = {}) {
  return defineTool<EditFileArgs, EditFileValue>({
    name: 'edit_file',
    description: 'Replace an exact piece of text in a UTF-8 text file inside the workspace. old_string must match '
      + 'the file exactly (whitespace included) and occur exactly once, unless replace_all is true (then every '
      + 'occurrence is replaced). Read the file first.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root.' },
        old_string: { type: 'string', minLength: 1, description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence (default false).' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    async execute(args, exec) {
      const { real, shown } = await root.resolve(args.path)
      if (args.old_string === args.new_string) {
        throw new CodedError('old_string and new_string are the same; the edit would change nothing', EDIT_NO_CHANGE)
      }
      const { text, read } = await readText(root, real, args.path, shown, config.maxEditBytes, exec.signal)
      const parts = text.split(args.old_string)
      const count = parts.length - 1
      if (count === 0) {
        throw new CodedError(`old_string does not occur in "${shown}"; read the file and copy the text exactly`, EDIT_NO_MATCH)
      }
      if (count > 1 && !args.replace_all) {
        throw new CodedError(`old_string occurs ${count} times in "${shown}"; `
          + 'add surrounding lines to make it unique, or set replace_all to replace every occurrence', EDIT_NOT_UNIQUE)
      }
      const next = Buffer.from(parts.join(args.new_string), 'utf8')
      await seams.afterRead?.()
      exec.signal.throwIfAborted()
      await ensureUnchanged(real, read, args.path, shown)
      await replaceFile(root, real, args.path, next, { signal: exec.signal })
      return { path: shown, replacements: count, bytes: next.length }
    },
  })
}

/** What was read: the text, and the file's identity and times as they were before reading. */
interface Read { text: string, read: BigIntStats }

/** The whole text of the regular, UTF-8 file at `real`, read through a checked descriptor. */
async function readText(root: Root, real: string, input: string, shown: string, maxBytes: number,
  signal: AbortSignal): Promise<Read> {
  const file = await openInside(root, real, FOR.read, input)
  try {
    const read = await file.stat({ bigint: true })
    if (!read.isFile()) throw new CodedError(`"${shown}" is ${kindOf(await file.stat())}, not a regular file`, WRONG_TYPE)
    if (read.size > maxBytes) {
      throw new CodedError(`"${shown}" is ${read.size} bytes; edit_file edits files up to ${maxBytes} bytes `
        + '(config maxEditBytes). Change it another way, e.g. with a command, or raise the limit', TOO_LARGE)
    }
    if (await looksBinary(file)) throw new CodedError(`"${shown}" looks binary (it contains NUL bytes); edit_file edits text only`, NOT_TEXT)
    const text = decodeUtf8(await readBytes(file, Number(read.size), signal))
    if (text === undefined) {
      throw new CodedError(`"${shown}" is not valid UTF-8; edit_file edits UTF-8 text only, since it would `
        + 'change the bytes it cannot decode. Convert the file to UTF-8 first, or replace it whole with write_file', NOT_TEXT)
    }
    return { text, read }
  } finally {
    await file.close()
  }
}

/** The first `size` bytes of `file` (fewer if it shrank meanwhile): never more, however it grows. */
async function readBytes(file: FileHandle, size: number, signal: AbortSignal): Promise<Buffer> {
  const bytes = Buffer.alloc(size)
  let done = 0
  while (done < size) {
    signal.throwIfAborted()
    const { bytesRead } = await file.read(bytes, done, size - done, done)
    if (bytesRead === 0) break
    done += bytesRead
  }
  return bytes.subarray(0, done)
}

/**
 * Refuses to replace the file when the name no longer holds the file that was read as it was
 * (another file, or another size, modification or change time): the edit would drop that change.
 */
async function ensureUnchanged(real: string, read: BigIntStats, input: string, shown: string): Promise<void> {
  const now = await stat(real, { bigint: true }).catch((error) => explain(error, input))
  const same = now.dev === read.dev && now.ino === read.ino && now.size === read.size
    && now.mtimeNs === read.mtimeNs && now.ctimeNs === read.ctimeNs
  if (!same) {
    throw new CodedError(`"${shown}" changed while edit_file was editing it (something else wrote to it); `
      + 'nothing was written. Read the file again and redo the edit', EDIT_CHANGED)
  }
}

function render(_args: EditFileArgs, v: EditFileValue): ContentBlock[] {
  const times = v.replacements === 1 ? '1 replacement' : `${v.replacements} replacements`
  return [{ type: 'text', text: `Edited ${v.path}: ${times} (now ${v.bytes} bytes)` }]
}
