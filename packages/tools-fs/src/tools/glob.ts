/**
 * `glob`: files inside the root whose path matches a glob pattern (tinyglobby syntax:
 * `*`, `**`, `?`, `{a,b}`, `[...]`), sorted by path: the first `maxEntries`, and the exact
 * total, so the result says exactly how many were left out. Paths in the result are relative
 * to the root, ready for read_file. Each was, when checked, a regular file inside the root.
 */
import { defineTool, type ContentBlock } from '@rein/kernel'
import { headItems } from '@rein/retention'
import { FOR, keepInside, openInside, type Root } from '@rein/workspace'
import type { Config } from '../config.js'
import { checkPattern, findFiles } from '../walk.js'

export interface GlobArgs { pattern: string, path?: string }
export interface GlobValue { files: string[], total: number, truncated: boolean }

const valueSchema = {
  type: 'object',
  required: ['files', 'total', 'truncated'],
  properties: {
    files: { type: 'array', items: { type: 'string' } },
    total: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
  },
  additionalProperties: false,
}

/** The `glob` tool for `root`. Concurrency-safe and idempotent. */
export function globTool(root: Root, config: Config) {
  return defineTool<GlobArgs, GlobValue>({
    name: 'glob',
    description: 'Find files in the workspace by glob pattern, e.g. "**/*.ts" or "src/**/{a,b}.json". '
      + `Returns paths relative to the workspace root, sorted, at most ${config.maxEntries}. `
      + `Symbolic links are not followed; ${config.ignore.join(', ') || 'nothing'} is skipped.`,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob pattern, relative to path.' },
        path: { type: 'string', description: 'Folder to search in, relative to the workspace root (default ".").' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    isConcurrencySafe: () => true,
    idempotent: true,
    async execute(args, exec) {
      checkPattern(args.pattern, root)
      const { real, shown } = await root.resolve(args.path ?? '.')
      const notFolder = `"${shown}" is a file, not a folder`
      const dir = await openInside(root, real, FOR.folder, args.path ?? '.', notFolder)
      await dir.close()
      const found = await keepInside(root, await findFiles(real, args.pattern, config.ignore, exec.signal), exec.signal)
      const kept = headItems(found, config.maxEntries)
      return { files: kept.items.map((file) => root.show(file)), total: kept.total, truncated: kept.omitted > 0 }
    },
  })
}

function render(args: GlobArgs, v: GlobValue): ContentBlock[] {
  if (v.total === 0) return [{ type: 'text', text: `No files match "${args.pattern}".` }]
  const more = v.truncated ? [`[${v.total - v.files.length} more files not shown; use a narrower pattern]`] : []
  return [{ type: 'text', text: [`${v.total} ${v.total === 1 ? 'file' : 'files'} match "${args.pattern}":`, ...v.files, ...more].join('\n') }]
}
