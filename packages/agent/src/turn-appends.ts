/**
 * How a turn's entries reach the session log around its batch: the calls of a message logged
 * while the message is on its way (`after`), the turn's closing entries (`closeTurn`), and two
 * appends joined into one wait (`joined`). A promise stands for an append not yet durable;
 * undefined for one durable already (`SessionLog.add` on the memory store).
 */
import type { ContentBlock, ToolExecutionResult } from '@rein/kernel'
import type { NewSessionEntry } from './session.js'
import type { SessionLog } from './session-log.js'

/**
 * Both appends, each a promise or undefined when durable already (`SessionLog.add`, the memory
 * store): undefined when both are, so a memory session's calls wait for nothing.
 */
export function joined(a: Promise<unknown> | undefined, b: Promise<unknown> | undefined): Promise<unknown> | undefined {
  if (a === undefined) return b
  return b === undefined ? a : Promise.all([a, b])
}

/** The closing entries of a turn, as appended: how it ended, and their appends (undefined: durable already). */
export interface TurnClose {
  outcome: 'aborted' | 'committed'
  written: Promise<unknown> | undefined
}

/**
 * Appends the end of a turn whose calls are all final: the context the results added, as a
 * user message, then `turn/end`. Not awaited here: a store whose write of a result fails
 * refuses these too (`SessionStore`), and the agent awaits them only after the results.
 */
export function closeTurn(log: SessionLog, turn: number, results: readonly ToolExecutionResult[], aborted: boolean): TurnClose {
  const contexts: ContentBlock[] = []
  for (const result of results) if (result.additionalContexts) contexts.push(...result.additionalContexts)
  const outcome = aborted ? 'aborted' : 'committed'
  const context = contexts.length > 0 ? log.append({ type: 'message', turn, message: { role: 'user', content: contexts } }) : undefined
  const end = log.add({ type: 'turn/end', turn, outcome })
  const written = joined(context, end)
  written?.catch(() => {}) // awaited by the agent once the batch is committed
  return { outcome, written }
}

/**
 * The log for the calls of a message whose append is `asked`: their `tool/call` entries are
 * appended at once, without waiting for the message to be durable, so that one write of a
 * grouping store carries the message and the first calls; the store keeps append order and,
 * should the message fail, refuses what follows (`SessionStore`). Each append still resolves
 * only once the message is durable too, so no call runs before the message that asked for it.
 */
export function after(asked: Promise<unknown>, log: SessionLog): { add(entry: NewSessionEntry): Promise<unknown> } {
  let stored = false
  asked.then(() => { stored = true }, () => {})
  return {
    add: (entry) => {
      const appended = log.append(entry)
      // One reaction, not a Promise.all: every call of the batch is logged while the message is on
      // its way, and a store that acknowledges in order has acknowledged the message by then.
      return stored ? appended : appended.then((entry) => stored ? entry : asked.then(() => entry))
    },
  }
}
