/**
 * The `tools/post-execute` handler that spills. It runs outermost, so it sees the content
 * every inner handler decided on, exactly as the model would. It is best-effort: when the
 * cap cannot hold the notice or the store fails, the result stays as it was (and the plugin
 * warns once); it never turns a result into an error, never blocks, and never makes what
 * the model sees larger. With `maxBatchBytes` its answers depend only on the batch's results
 * in model order, so the same batch always spills the same results.
 */
import { utf8Length } from '@rein/retention'
import {
  failure, finalizeContent, knownDecision, TOOL_BLOCKED, type ContentBlock, type PostExecuteHandler, type PostToolDecision, type ToolExec, type ToolExecutionResult,
} from '@rein/kernel'
import { BatchLedger } from './batch.js'
import { capFor, spillRedactor, type SpillConfig } from './config.js'
import { buildPreview, capCanHoldNotice, smallestPreviewBytes } from './preview.js'
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
  const only = content.length === 1 ? content[0]! : undefined
  if (only) return only.type === 'text' ? only.text : undefined
  const texts = content.flatMap((block) => block.type === 'text' ? [block.text] : [])
  return texts.length ? texts.join('\n') : undefined
}

/** The smallest preview of an output, before its locator is known (an empty locator and hint). */
const UNSAVED = { locator: '', retrievalHint: '' }

/**
 * Makes the handler. A result whose text is over its tool's cap — or, with `maxBatchBytes`,
 * over what its batch has left — is saved whole; its text blocks become one preview block of
 * at most that many bytes (non-text blocks follow it unchanged), and `exec.meta.spilled =
 * { locator, bytes }` records where it went. Each result then charges its batch with the
 * bytes the model will see: the preview when it was spilled, else its whole text.
 */
export function spillHandler({ config, store, warnOnce }: SpillDeps): PostExecuteHandler {
  const ledger = typeof config.maxBatchBytes === 'number' ? new BatchLedger(config.maxBatchBytes) : undefined
  const redact = spillRedactor(config)
  // Not async: most results pass unchanged, and pay for no frame of their own. When nothing
  // inside spill has a say (`knownDecision`), it decides at once, and a result it leaves
  // inline goes on as the very promise `next()` gave it: the stage stays synchronous.
  return (exec, result, next) => {
    const inner = next()
    const known = knownDecision(inner)
    if (known === undefined) return inner.then((decision) => decide(exec, result, decision))
    const decided = decide(exec, result, known)
    return decided === known ? inner : Promise.resolve(decided)
  }

  function decide(exec: ToolExec, result: ToolExecutionResult, decision: PostToolDecision): PostToolDecision | Promise<PostToolDecision> {
    const share = ledger?.enter(exec)
    if (decision.kind !== 'accept') {
      share?.charge(textBytes(failure(TOOL_BLOCKED, String(decision.feedback)).content))
      return decision
    }
    // What the model will see: the kernel's own last word (a failure starts with its `Error: ` line).
    const content = finalizeContent(decision.content ? { ...result, content: decision.content } : result).content
    const text = joinedText(content)
    const cap = capFor(config, exec.name)
    // 3 bytes per UTF-16 unit at most: a short text is under the cap without being measured.
    if (text === undefined || exec.name === READ_SPILLED || (!share && text.length <= cap / 3)) {
      share?.charge(text === undefined ? 0 : utf8Length(text))
      return decision
    }
    const totalBytes = utf8Length(text)
    if (totalBytes <= (share ? Math.min(cap, share.room) : cap)) {
      share?.charge(totalBytes)
      return decision
    }
    return spillOne({ exec, text, totalBytes, cap, room: share?.room, isError: result.isError }, { store, warnOnce, redact }).then((shown) => {
      share?.charge(shown === undefined ? totalBytes : utf8Length(shown))
      if (shown === undefined) return decision
      const rest = content.filter((block) => block.type !== 'text')
      return { ...decision, content: [{ type: 'text', text: shown }, ...rest] }
    })
  }
}

/** One output to spill: over `cap`, or over the `room` its batch has left. */
interface Oversized {
  exec: ToolExec
  text: string
  totalBytes: number
  cap: number
  room: number | undefined
  isError: boolean
}

/**
 * Saves the output and returns its preview, or undefined to keep it inline: when the cap
 * cannot hold the notice (warned once per tool), when the store fails (warned once), or when
 * even the notice alone would not be smaller than the output (nothing to gain). With `redact`,
 * the saved text and its preview are the redacted output (so offsets in the notice are the
 * saved text's); an output kept inline is left as it is.
 */
async function spillOne(
  oversized: Oversized,
  { store, warnOnce, redact }: Pick<SpillDeps, 'store' | 'warnOnce'> & { redact?: (text: string) => string },
): Promise<string | undefined> {
  const out = redact ? redactedOutput(oversized, redact) : oversized
  const { exec, text, totalBytes, cap, room, isError } = out
  const tooSmall = () => warnOnce(`cap:${exec.name}`, `the spill cap of ${cap} bytes for "${exec.name}" is too small `
    + `to hold the spill notice, so its large outputs stay inline; raise maxInlineBytes (or tools.${exec.name})`)
  if (!capCanHoldNotice(cap, totalBytes, isError)) {
    // Only an output over its cap is the cap's fault; one over the batch's room alone is smaller than a notice.
    if (totalBytes > cap) tooSmall()
    return undefined
  }
  if (smallestPreviewBytes(totalBytes, UNSAVED, isError) >= totalBytes) return undefined
  const current = store()
  if (!current) {
    warnOnce('store', 'no spill store is available (store: external, and no plugin provides spillStore); large outputs stay inline')
    return undefined
  }
  let saved: SavedSpill
  try {
    saved = await current.save(text, { tool: exec.name, callId: exec.id })
    if (!isSaved(saved)) throw new Error('save() did not return { locator, bytes, retrievalHint }')
  } catch (error) {
    warnOnce('store', `the spill store failed to save an output of "${exec.name}" (${(error as Error)?.message ?? error}); `
      + 'large outputs stay inline while it fails (this warning is shown once)')
    return undefined
  }
  // Within the batch's room, but never below the notice alone: the notice is what makes a spill readable.
  const limit = room === undefined ? cap : Math.min(cap, Math.max(room, smallestPreviewBytes(totalBytes, saved, isError)))
  const preview = buildPreview(text, limit, saved, { isError })
  if (!preview || utf8Length(preview.text) >= totalBytes) {
    const locator = saved.locator
    await Promise.resolve().then(() => current.delete?.(locator)).catch(() => {})
    if (!preview) tooSmall()
    return undefined
  }
  exec.meta.spilled = { locator: saved.locator, bytes: saved.bytes }
  return preview.text
}

/** The output with its secrets taken out, measured again. */
function redactedOutput(out: Oversized, redact: (text: string) => string): Oversized {
  const text = redact(out.text)
  return text === out.text ? out : { ...out, text, totalBytes: utf8Length(text) }
}

/** The UTF-8 size of the text blocks of `content`, joined as the preview would join them. */
function textBytes(content: ContentBlock[]): number {
  const text = joinedText(content)
  return text === undefined ? 0 : utf8Length(text)
}
