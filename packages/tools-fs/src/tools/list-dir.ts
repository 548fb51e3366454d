/**
 * `list_dir`: the entries of one folder inside the root, sorted by name, with their kind
 * and (for files) size. The first `maxEntries` are returned; the result then says exactly how
 * many there are in all. Symbolic links are listed as links and never followed. The folder is
 * opened once and checked to be inside the root; entries are read through that descriptor.
 */
import { lstat, opendir } from 'node:fs/promises'
import { defineTool, type ContentBlock } from '@rein/kernel'
import { headItems } from '@rein/retention'
import { FOR, openInside, within, type Root } from '@rein/workspace'
import type { Config } from '../config.js'

export interface ListDirArgs { path?: string }
export type EntryType = 'file' | 'dir' | 'symlink' | 'other'
export interface DirEntry { name: string, type: EntryType, size?: number }
export interface ListDirValue { path: string, entries: DirEntry[], total: number, truncated: boolean }

const valueSchema = {
  type: 'object',
  required: ['path', 'entries', 'total', 'truncated'],
  properties: {
    path: { type: 'string' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type'],
        properties: {
          name: { type: 'string' },
          type: { enum: ['file', 'dir', 'symlink', 'other'] },
          size: { type: 'integer', minimum: 0 },
        },
        additionalProperties: false,
      },
    },
    total: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
  },
  additionalProperties: false,
}

/** The `list_dir` tool for `root`. Concurrency-safe and idempotent. */
export function listDirTool(root: Root, config: Config) {
  return defineTool<ListDirArgs, ListDirValue>({
    name: 'list_dir',
    description: `List a folder inside the workspace (default: the root): names, kinds and file sizes, sorted, `
      + `at most ${config.maxEntries} entries. Folders are shown with a trailing "/".`,
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Folder path, relative to the workspace root (default ".").' } },
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    isConcurrencySafe: () => true,
    idempotent: true,
    async execute(args, exec) {
      const { real, shown } = await root.resolve(args.path ?? '.')
      const dir = await openInside(root, real, FOR.folder, args.path ?? '.', `"${shown}" is a file, not a folder; use read_file`)
      try {
        const names: string[] = []
        for await (const entry of await opendir(within(dir))) {
          exec.signal.throwIfAborted()
          names.push(entry.name)
        }
        names.sort()
        const kept = headItems(names, config.maxEntries)
        const entries: DirEntry[] = []
        for (const name of kept.items) {
          exec.signal.throwIfAborted()
          entries.push(await describe(within(dir, name), name))
        }
        return { path: shown, entries, total: kept.total, truncated: kept.omitted > 0 }
      } finally {
        await dir.close()
      }
    },
  })
}

async function describe(full: string, name: string): Promise<DirEntry> {
  const stat = await lstat(full).catch(() => undefined)
  if (!stat) return { name, type: 'other' }
  if (stat.isSymbolicLink()) return { name, type: 'symlink' }
  if (stat.isDirectory()) return { name, type: 'dir' }
  if (stat.isFile()) return { name, type: 'file', size: stat.size }
  return { name, type: 'other' }
}

function render(_args: ListDirArgs, v: ListDirValue): ContentBlock[] {
  const lines = v.entries.map((e) =>
    e.type === 'dir' ? `${e.name}/` : e.type === 'symlink' ? `${e.name}@` : e.type === 'file' ? `${e.name}  (${e.size} bytes)` : e.name)
  const head = `${v.path}: ${v.total} ${v.total === 1 ? 'entry' : 'entries'}`
  const tail = v.truncated ? [`[${v.total - v.entries.length} more entries not shown; use glob to narrow down]`] : []
  return [{ type: 'text', text: [head, ...lines, ...tail].join('\n') }]
}
