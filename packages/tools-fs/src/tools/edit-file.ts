/**
 * `edit_file`: an exact string replacement in a text file inside the root. The match is
 * literal (no regex, no `$` patterns). Without `replace_all` the old string must occur exactly
 * once, so an edit never lands in a place the model did not mean. The file is read and
 * rewritten through one descriptor checked to be inside the root (`openInside`). Exclusive.
 */
import { defineTool, type ContentBlock } from '@rein/kernel'
import { FOR, openInside, type Root } from '@rein/workspace'
import { EDIT_NO_CHANGE, EDIT_NO_MATCH, EDIT_NOT_UNIQUE, FsToolError, NOT_TEXT, WRONG_TYPE } from '../codes.js'
import { looksBinary } from '../lines.js'

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
    description: 'Replace an exact piece of text in a file inside the workspace. old_string must match the file '
      + 'exactly (whitespace included) and occur exactly once, unless replace_all is true (then every occurrence '
      + 'is replaced). Read the file first.',
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
        throw new FsToolError(EDIT_NO_CHANGE, 'old_string and new_string are the same; the edit would change nothing')
      }
      const file = await openInside(root, real, FOR.edit, args.path)
      try {
        if (!(await file.stat()).isFile()) throw new FsToolError(WRONG_TYPE, `"${shown}" is not a regular file`)
        if (await looksBinary(file)) throw new FsToolError(NOT_TEXT, `"${shown}" looks binary (it contains NUL bytes); edit_file edits text only`)
        const text = await file.readFile({ encoding: 'utf8', signal: exec.signal })
        const parts = text.split(args.old_string)
        const count = parts.length - 1
        if (count === 0) {
          throw new FsToolError(EDIT_NO_MATCH, `old_string does not occur in "${shown}"; read the file and copy the text exactly`)
        }
        if (count > 1 && !args.replace_all) {
          throw new FsToolError(EDIT_NOT_UNIQUE, `old_string occurs ${count} times in "${shown}"; `
            + 'add surrounding lines to make it unique, or set replace_all to replace every occurrence')
        }
        const next = parts.join(args.new_string)
        exec.signal.throwIfAborted()
        await file.truncate(0)
        await file.write(next, 0, 'utf8')
        return { path: shown, replacements: count, bytes: Buffer.byteLength(next) }
      } finally {
        await file.close()
      }
    },
  })
}

function render(_args: EditFileArgs, v: EditFileValue): ContentBlock[] {
  const times = v.replacements === 1 ? '1 replacement' : `${v.replacements} replacements`
  return [{ type: 'text', text: `Edited ${v.path}: ${times} (now ${v.bytes} bytes)` }]
}
