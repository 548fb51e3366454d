/**
 * `edit_file`: an exact string replacement in a text file inside the root. The match is
 * literal (no regex, no `$` patterns). Without `replace_all` the old string must occur exactly
 * once, so an edit never lands in a place the model did not mean. Only UTF-8 text is edited:
 * any other byte would not survive decoding and encoding, so such a file is refused and left
 * alone. The file is read through a descriptor checked to be inside the root (`openInside`)
 * and replaced whole through a new file renamed over it (`replaceFile`), so it is never seen
 * cut short. Exclusive.
 */
import { CodedError, defineTool, type ContentBlock } from '@rein/kernel'
import { FOR, kindOf, openInside, replaceFile, type Root } from '@rein/workspace'
import { EDIT_NO_CHANGE, EDIT_NO_MATCH, EDIT_NOT_UNIQUE, NOT_TEXT, WRONG_TYPE } from '../codes.js'
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

/** The `edit_file` tool for `root`. Exclusive, not idempotent. */
export function editFileTool(root: Root) {
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
      const text = await readText(root, real, args.path, shown, exec.signal)
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
      exec.signal.throwIfAborted()
      await replaceFile(root, real, args.path, next, { signal: exec.signal })
      return { path: shown, replacements: count, bytes: next.length }
    },
  })
}

/** The whole text of the regular, UTF-8 file at `real`, read through a checked descriptor. */
async function readText(root: Root, real: string, input: string, shown: string, signal: AbortSignal): Promise<string> {
  const file = await openInside(root, real, FOR.read, input)
  try {
    const stat = await file.stat()
    if (!stat.isFile()) throw new CodedError(`"${shown}" is ${kindOf(stat)}, not a regular file`, WRONG_TYPE)
    if (await looksBinary(file)) throw new CodedError(`"${shown}" looks binary (it contains NUL bytes); edit_file edits text only`, NOT_TEXT)
    const text = decodeUtf8(await file.readFile({ signal }))
    if (text === undefined) {
      throw new CodedError(`"${shown}" is not valid UTF-8; edit_file edits UTF-8 text only, since it would `
        + 'change the bytes it cannot decode. Convert the file to UTF-8 first, or replace it whole with write_file', NOT_TEXT)
    }
    return text
  } finally {
    await file.close()
  }
}

function render(_args: EditFileArgs, v: EditFileValue): ContentBlock[] {
  const times = v.replacements === 1 ? '1 replacement' : `${v.replacements} replacements`
  return [{ type: 'text', text: `Edited ${v.path}: ${times} (now ${v.bytes} bytes)` }]
}
