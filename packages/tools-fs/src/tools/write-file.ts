/**
 * `write_file`: creates or replaces a text file inside the root, creating missing parent
 * folders (inside the root) on the way. Exclusive: it never runs alongside another call.
 * A path that leads out of the root is refused before anything is created. The content goes
 * to a new file in the target's folder, opened by descriptor and checked to be inside the
 * root, and is renamed over the target only once it is whole and on disk (`replaceFile`): the
 * old content stays until then, and a FIFO, socket or device is refused without being opened.
 */
import { defineTool, type ContentBlock } from '@rein/kernel'
import { replaceFile, type Root } from '@rein/workspace'

export interface WriteFileArgs { path: string, content: string }
export interface WriteFileValue { path: string, bytes: number, created: boolean }

const valueSchema = {
  type: 'object',
  required: ['path', 'bytes', 'created'],
  properties: { path: { type: 'string' }, bytes: { type: 'integer', minimum: 0 }, created: { type: 'boolean' } },
  additionalProperties: false,
}

/** The `write_file` tool for `root`. Exclusive, not idempotent. */
export function writeFileTool(root: Root) {
  return defineTool<WriteFileArgs, WriteFileValue>({
    name: 'write_file',
    description: 'Create or overwrite a text file inside the workspace with the given content '
      + '(UTF-8). Missing parent folders are created. To change part of a file, prefer edit_file.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root.' },
        content: { type: 'string', description: 'The whole new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    async execute(args, exec) {
      const { real, shown } = await root.resolve(args.path)
      exec.signal.throwIfAborted()
      const data = Buffer.from(args.content, 'utf8')
      const { created } = await replaceFile(root, real, args.path, data, { makeFolders: true, signal: exec.signal })
      return { path: shown, bytes: data.length, created }
    },
  })
}

function render(_args: WriteFileArgs, v: WriteFileValue): ContentBlock[] {
  return [{ type: 'text', text: `${v.created ? 'Created' : 'Overwrote'} ${v.path} (${v.bytes} bytes)` }]
}
