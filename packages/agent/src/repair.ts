/**
 * Resume repair. Before a run continues a session, every call left without a result (the
 * process died, or the scheduler failed) gets one, so that the provider accepts the
 * transcript: TOOL_NOT_STARTED when no `tool/call` was logged (it never ran). A call that was
 * logged as started is reconciled (`reconcile.ts`): its tool's `reconcile` may commit the
 * value of the effect that happened, or have it run again once under the same key; without
 * a sure answer it is TOOL_OUTCOME_UNKNOWN (it may or may not have run). No call with a
 * result is ever run again. A result that another call of its batch references
 * (`${id.result}`) keeps its value, as the scheduler keeps it, for a continuation to substitute.
 * The calls a turn awaiting approval will continue (`parked-turn.ts`) are left alone, and that
 * turn is not ended. A call run again that parks for approval (`APPROVAL_PARKED`) is never
 * committed as parked: in the session's last batch it records its request and is left parked,
 * with the calls never started behind it, for the continuation; elsewhere it is denied.
 */
import type { Context } from 'cordis'
import { APPROVAL_PARKED, Messages, TOOL_DENIED, TOOL_NOT_STARTED, codeOf, readArguments, type Json } from '@rein/kernel'
import type { ApprovalBook } from './approval-book.js'
import { reconcileCall } from './reconcile.js'
import { referencedIds } from './references.js'
import { resultEntry, type SessionEntry } from './session.js'
import type { SessionLog } from './session-log.js'
import type { ParkedTurn } from './parked-turn.js'
import { unanswered } from './transcript.js'

/** What repair did: how many calls it settled, and whether it left a call parked (the session now awaits approval). */
export interface Repaired {
  settled: number
  parked: boolean
}

/** Settles and logs every unanswered call of the log, in log order (see the module header). */
export async function repairSession(ctx: Context, log: SessionLog, agent: string, book: ApprovalBook, signal?: AbortSignal, parked?: ParkedTurn): Promise<Repaired> {
  const missing = unanswered(log.all).filter(({ turn, index }) => turn !== parked?.turn || !parked.continuing.has(index))
  if (missing.length === 0) return { settled: 0, parked: false }
  const last = lastBatch(log.all)
  const referenced = new Map<number, Set<string>>()
  const turns = new Set<number>()
  const parkedIn = new Set<number>()
  let settled = 0
  for (const { turn, index, call, started } of missing) {
    // Held behind a call parked here: the continuation runs it, as any call held in a parked batch.
    if (!started && parkedIn.has(turn)) continue
    const options = { turn, index, agent, session: log.session, signal }
    let result = started
      ? await reconcileCall(ctx.tools, started, options)
      : await ctx.tools.settle(call, TOOL_NOT_STARTED, Messages.notStarted, options)
    if (codeOf(result) === APPROVAL_PARKED) {
      if (turn === last) {
        const args = (readArguments(started!.arguments) ?? {}) as { [key: string]: Json }
        await log.append(book.park(turn, index, call, args, Date.now()).entry)
        parkedIn.add(turn)
        continue
      }
      result = await ctx.tools.settle(call, TOOL_DENIED, `"${call.name}" was denied: it asked for approval when its session was resumed, and its batch can no longer wait for one`, options)
    }
    const kept = referencedIn(log.all, turn, referenced).has(call.id)
    await log.append(resultEntry(turn, index, call.id, result, undefined, kept))
    turns.add(turn)
    settled++
  }
  for (const turn of turns) if (turn !== parked?.turn && !parkedIn.has(turn)) await log.append({ type: 'turn/end', turn, outcome: 'repaired' })
  return { settled, parked: parkedIn.size > 0 }
}

/** The turn of the session's last batch (the last assistant message with calls): the one a continuation can run. */
function lastBatch(entries: readonly SessionEntry[]): number | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.type === 'message' && entry.message.role === 'assistant' && entry.message.toolCalls?.length) return entry.turn
  }
  return undefined
}

/** The call ids that the calls of `turn`'s batch reference (`${id.result}`), found once per turn. */
function referencedIn(entries: readonly SessionEntry[], turn: number, found: Map<number, Set<string>>): Set<string> {
  let ids = found.get(turn)
  if (ids) return ids
  ids = new Set()
  for (const entry of entries) {
    if (entry.type !== 'message' || entry.turn !== turn || entry.message.role !== 'assistant') continue
    for (const call of entry.message.toolCalls ?? []) for (const id of referencedIds(readArguments(call.arguments) ?? call.arguments)) ids.add(id)
  }
  found.set(turn, ids)
  return ids
}
