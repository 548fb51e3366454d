/**
 * `@rein/plugin-spill`: keeps large tool outputs out of the model's context. Outermost on
 * `tools/post-execute`, it saves any result whose text is over the cap (or over what its batch
 * has left of `maxBatchBytes`) to a spill store and shows a head/tail preview with a notice;
 * the model reads the rest with `read_spilled`.
 * The store is the service `ctx.spillStore`; everything else lives in this plugin instance.
 */
import type { Context } from 'cordis'
import { type SpillConfig } from './config.js'
import { localStore } from './local-store.js'
import { memoryStore } from './memory-store.js'
import { readSpilledTool } from './read-tool.js'
import { spillHandler } from './spill.js'
import type { SpillStore } from './store.js'

/** The cordis plugin name. */
export const name = 'spill'
/** Applied after the kernel, whose hooks and tool registry it uses. */
export const inject = ['tools']

/**
 * Provides `ctx.spillStore` (unless `store: 'external'`), registers the outermost
 * `tools/post-execute` handler and the `read_spilled` tool. Disposing the plugin removes all
 * three and closes the store it made (a default temporary directory is deleted).
 */
export function apply(ctx: Context, config: SpillConfig) {
  const logger = ctx.logger('spill')
  const own = makeStore(config)
  if (own) {
    ctx.set('spillStore', own)
    ctx.effect(() => () => {
      own.close?.().catch((error: Error) => logger.warn(`closing the spill store failed: ${error.message}`))
    })
  }
  const store = (): SpillStore | undefined => own ?? ctx.get('spillStore')
  const warned = new Set<string>()
  const warnOnce = (key: string, message: string) => {
    if (warned.has(key)) return
    warned.add(key)
    logger.warn(message)
  }
  ctx.on('tools/post-execute', spillHandler({ config, store, warnOnce }), { prepend: true })
  ctx.tools.register(readSpilledTool(store, config.maxInlineBytes))
}

function makeStore(config: SpillConfig): SpillStore | undefined {
  switch (config.store) {
    case 'local': return localStore({ dir: config.dir, maxBytes: config.maxStoreBytes })
    case 'memory': return memoryStore({ maxBytes: config.maxStoreBytes })
    case 'external': return undefined
  }
}

export { Config, capFor, type SpillConfig, type StoreKind } from './config.js'
export { SpillCodes, SPILL_NOT_FOUND, SPILL_EXPIRED, SPILL_STORE_UNAVAILABLE } from './codes.js'
export { SpillNotFoundError, SpillExpiredError, READ_SPILLED, readSpilledHint, type ByteRange, type SpillStore, type SpillMeta, type SavedSpill } from './store.js'
export { MemorySpillStore, memoryStore, type MemoryStoreOptions } from './memory-store.js'
export { DEFAULT_MAX_STORE_BYTES } from './bound.js'
export { LocalSpillStore, localStore, type LocalStoreOptions } from './local-store.js'
export { buildPreview, noticeText, smallestPreviewBytes, type Preview, type NoticeFacts } from './preview.js'
export { sliceBytes, sliceWindow, windowEnd, type ByteSlice } from './slice.js'
export { readSpilledTool, type ReadSpilledArgs, type SpilledSlice } from './read-tool.js'
export { spillHandler, type SpillDeps } from './spill.js'
export { BatchLedger, type BatchShare } from './batch.js'
