/**
 * The `tools/post-execute` handler that spills. It runs outermost, so it sees the content
 * every inner handler decided on, exactly as the model would. It is best-effort: when the
 * cap cannot hold the notice or the store fails, the result stays as it was (and the plugin
 * warns once); it never turns a result into an error and never blocks.
 */
import { utf8Length } from '@rein/retention'
import { finalizeContent, type ContentBlock, type PostExecuteHandler } from '@rein/kernel'
import { capFor, type SpillConfig } from './config.js'
import { buildPreview, capCanHoldNotice } from './preview.js'
import { READ_SPILLED, type SavedSpill, type SpillStore } from './store.js'

export interface SpillDeps {
  config: SpillConfig
  /** The store to save to, looked up at each call (undefined: none is available). */
  store: () => SpillStore | undefined
  /** Logs `message` the first time `key` is seen, and never again for this plugin instance. */
  warnOnce: (key: string, message: string) => void
}

/** Whether a store's answer to `save` has the promised shape (a foreign store might not). */
function isSaved(saved: unknown): saved is SavedSpill {
  const s = saved as SavedSpill | undefined
  return typeof s?.locator === 'string' && typeof s.retrievalHint === 'string' && Number.isInteger(s.bytes)
}

/** All text blocks joined by newlines, or undefined when there are none. */
function joinedText(content: ContentBlock[]): string | undefined {
  const texts = content.flatMap((block) => block.type === 'text' ? [block.text] : [])
  return texts.length ? texts.join('\n') : undefined
}

/**
 * Makes the handler. A result whose text is over its tool's cap is saved whole; its text
 * blocks become one preview block (non-text blocks follow it unchanged), and
 * `exec.meta.spilled = { locator, bytes }` records where it went.
 */
export function spillHandler({ config, store, warnOnce }: SpillDeps): PostExecuteHandler {
  return async (exec, result, next) => {
    const decision = await next()
    if (decision.kind !== 'accept' || exec.name === READ_SPILLED) return decision
    const cap = capFor(config, exec.name)
    // What the model will see: the kernel's own last word (a failure starts with its `Error: ` line).
    const content = finalizeContent({ ...result, content: decision.content ?? result.content }).content
    const text = joinedText(content)
    if (text === undefined || text.length <= cap / 3) return decision // 3 bytes per UTF-16 unit at most
    const totalBytes = utf8Length(text)
    if (totalBytes <= cap) return decision

    const tooSmall = () => warnOnce(`cap:${exec.name}`, `the spill cap of ${cap} bytes for "${exec.name}" is too small `
      + `to hold the spill notice, so its large outputs stay inline; raise maxInlineBytes (or tools.${exec.name})`)
    if (!capCanHoldNotice(cap, totalBytes, result.isError)) {
      tooSmall()
      return decision
    }

    const current = store()
    if (!current) {
      warnOnce('store', 'no spill store is available (store: external, and no plugin provides spillStore); large outputs stay inline')
      return decision
    }
    let saved: SavedSpill
    try {
      saved = await current.save(text, { tool: exec.name, callId: exec.id })
      if (!isSaved(saved)) throw new Error('save() did not return { locator, bytes, retrievalHint }')
    } catch (error) {
      warnOnce('store', `the spill store failed to save an output of "${exec.name}" (${(error as Error)?.message ?? error}); `
        + 'large outputs stay inline while it fails (this warning is shown once)')
      return decision
    }
    const preview = buildPreview(text, cap, saved, { isError: result.isError })
    if (!preview) {
      const locator = saved.locator
      await Promise.resolve().then(() => current.delete?.(locator)).catch(() => {})
      tooSmall()
      return decision
    }
    exec.meta.spilled = { locator: saved.locator, bytes: saved.bytes }
    const rest = content.filter((block) => block.type !== 'text')
    return { ...decision, content: [{ type: 'text', text: preview.text }, ...rest] }
  }
}
