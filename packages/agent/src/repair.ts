/**
 * Resume repair. Before a run continues a session, every call left without a result (the
 * process died, or the scheduler failed) gets one, so that the provider accepts the
 * transcript: TOOL_NOT_STARTED when no `tool/call` was logged (it never ran). A call that was
 * logged as started is reconciled (`reconcile.ts`): its tool's `reconcile` may commit the
 * value of the effect that happened, or have it run again once under the same key; without
 * a sure answer it is TOOL_OUTCOME_UNKNOWN (it may or may not have run). No call with a
 * result is ever run again. The calls a turn awaiting approval will continue
 * (`parked-turn.ts`) are left alone, and that turn is not ended.
 */
import type { Context } from 'cordis'
import { Messages, TOOL_NOT_STARTED } from '@rein/kernel'
import { reconcileCall } from './reconcile.js'
import { resultEntry } from './session.js'
import type { SessionLog } from './session-log.js'
import type { ParkedTurn } from './parked-turn.js'
import { unanswered } from './transcript.js'

/** Settles and logs every unanswered call of the log, in log order; returns how many it repaired. */
export async function repairSession(ctx: Context, log: SessionLog, agent: string, signal?: AbortSignal, parked?: ParkedTurn): Promise<number> {
  const missing = unanswered(log.all).filter(({ turn, index }) => turn !== parked?.turn || !parked.continuing.has(index))
  const turns = new Set<number>()
  for (const { turn, index, call, started } of missing) {
    const options = { turn, index, agent, session: log.session, signal }
    const result = started
      ? await reconcileCall(ctx.tools, started, options)
      : await ctx.tools.settle(call, TOOL_NOT_STARTED, Messages.notStarted, options)
    await log.append(resultEntry(turn, index, call.id, result))
    turns.add(turn)
  }
  for (const turn of turns) if (turn !== parked?.turn) await log.append({ type: 'turn/end', turn, outcome: 'repaired' })
  return missing.length
}
