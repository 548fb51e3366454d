/**
 * `@rein/tools-fs`: workspace file tools as a cordis plugin. It registers `read_file`,
 * `write_file`, `edit_file`, `list_dir`, `glob` and `grep`, all confined to `config.root` by
 * `@rein/workspace` (escapes are refused with `TOOL_DENIED`, also when a path is swapped while
 * being opened). Reads are concurrency-safe and idempotent; writes and edits are exclusive.
 * grep's regex runs in a worker thread that an abort ends; its pool goes with the plugin. The
 * root, and that `/proc/self/fd` can tell where a descriptor is, are checked once, at start.
 */
import type { Context } from 'cordis'
import { checkProcFd, Root } from '@rein/workspace'
import { Config, type ConfigInput } from './config.js'
import { workerMatcher } from './matcher.js'
import { editFileTool } from './tools/edit-file.js'
import { globTool } from './tools/glob.js'
import { grepTool } from './tools/grep.js'
import { listDirTool } from './tools/list-dir.js'
import { readFileTool } from './tools/read-file.js'
import { writeFileTool } from './tools/write-file.js'

/** The cordis plugin name. */
export const name = 'tools-fs'
/** Applied after the kernel, which provides `ctx.tools`. */
export const inject = ['tools']
export { Config, type ConfigInput }

/** Registers the six tools for as long as the plugin lives. Throws when `root` is unusable. */
export function apply(ctx: Context, config: Config) {
  const root = Root.open(config?.root, '@rein/tools-fs')
  checkProcFd(root, '@rein/tools-fs')
  const matcher = workerMatcher()
  ctx.effect(() => () => matcher.dispose())
  ctx.tools.register(readFileTool(root, config))
  ctx.tools.register(writeFileTool(root))
  ctx.tools.register(editFileTool(root, config))
  ctx.tools.register(listDirTool(root, config))
  ctx.tools.register(globTool(root, config))
  ctx.tools.register(grepTool(root, config, matcher))
}

export * from './codes.js'
export { Root, type Resolved } from '@rein/workspace'
export { workerMatcher, inlineMatcher, type Matcher } from './matcher.js'
export type { ReadFileArgs, ReadFileValue } from './tools/read-file.js'
export type { WriteFileArgs, WriteFileValue } from './tools/write-file.js'
export type { EditFileArgs, EditFileValue } from './tools/edit-file.js'
export type { ListDirArgs, ListDirValue, DirEntry, EntryType } from './tools/list-dir.js'
export type { GlobArgs, GlobValue } from './tools/glob.js'
export type { GrepArgs, GrepValue, GrepMatch } from './tools/grep.js'
