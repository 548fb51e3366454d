/**
 * A session store that adds what `rein trace` needs to draw a timeline, around any other
 * store: `at` (ms since the epoch) on every entry that lacks one; `mode` (parallel or
 * exclusive, the kernel's classification) on `tool/call`; and, on `tool/result`, the call's
 * measured `durationMs` and the facts plugins recorded (`meta`: attempts, cache hit, spill).
 * A result is committed in model order, possibly long after its call finished, so its `at`
 * is not when the call ended; `durationMs` is. Extra keys only: the entries stay valid.
 */
import type { Context } from 'cordis'
import type { CallEndEvent, NewSessionEntry, SessionStore } from '@rein/agent'
import type { Json } from '@rein/kernel'
import { modeOf } from '../progress/reporter.js'

/** The store, plus `close()` that also stops listening to the Context. */
export type RecordingSession = SessionStore & { close(): Promise<void> }

/** Wraps `inner`; listens to `agent/call-end` on `ctx` until closed. */
export function recordingSession(inner: SessionStore, ctx: Context, now: () => number = Date.now): RecordingSession {
  const finished = new Map<string, { durationMs: number, meta?: Record<string, Json> }>()
  const key = (turn: number, index: number) => `${turn}:${index}`
  const off = ctx.on('agent/call-end', (event: CallEndEvent) => {
    finished.set(key(event.turn, event.index), {
      durationMs: event.durationMs,
      ...(event.result.meta ? { meta: event.result.meta } : {}),
    })
  })

  const extra = (entry: NewSessionEntry): Record<string, unknown> => {
    const out: Record<string, unknown> = 'at' in entry ? {} : { at: now() }
    if (entry.type === 'tool/call' && !('mode' in entry)) out.mode = modeOf(ctx, entry.call)
    if (entry.type === 'tool/result') {
      const facts = finished.get(key(entry.turn, entry.index))
      finished.delete(key(entry.turn, entry.index))
      if (facts && !('durationMs' in entry)) Object.assign(out, facts)
    }
    return out
  }

  return {
    load: () => inner.load(),
    append: (entry) => inner.append({ ...entry, ...extra(entry) } as NewSessionEntry),
    async close() {
      off()
      await inner.close?.()
    },
  }
}
