/**
 * Sends one run's progress as BullMQ job progress, in order, in as few Redis round trips as
 * keeps it live. An event that says something is starting now (`call-start`, `waiting`) goes out
 * at once, with every event before it. One that reports what happened (`started`, `call-end`,
 * `turn-end`) waits up to `holdMs` for the next event to travel with — in a busy run the next
 * call starts a few milliseconds later, so a turn costs one send instead of three — and goes
 * out when that time is up. While a send is in flight, events wait for the next one. `flush()`
 * sends what is left and resolves once it is sent; a send that fails is dropped (progress is
 * best effort), and the run never waits for one except at `flush()`.
 */
import type { RunProgress } from './progress.js'

/** How long a report waits for company at most (ms): a person watching sees it this much later at worst. */
export const PROGRESS_HOLD_MS = 200

const AT_ONCE: ReadonlySet<RunProgress['kind']> = new Set(['call-start', 'waiting'])

/** The run's progress sender; `update` is BullMQ's `job.updateProgress`. */
export interface ProgressSender {
  send(event: RunProgress): void
  flush(): Promise<void>
}

/** Made when an attempt starts; sends nothing until its first event. `holdMs` is only changed by tests. */
export function progressSender(update: (events: RunProgress[]) => Promise<unknown>, holdMs = PROGRESS_HOLD_MS): ProgressSender {
  let waiting: RunProgress[] = []
  let sending: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined

  const drain = async () => {
    while (waiting.length > 0) {
      const batch = waiting
      waiting = []
      await update(batch).catch(() => {})
    }
    sending = undefined
  }
  const go = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    sending ??= drain()
  }

  return {
    send(event) {
      waiting.push(event)
      if (AT_ONCE.has(event.kind)) go()
      else if (!timer && !sending) timer = setTimeout(go, holdMs).unref()
    },
    async flush() {
      go()
      await sending
    },
  }
}
