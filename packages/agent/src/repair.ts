/**
 * Resume repair. Before a run continues a session, every call left without a result (the
 * process died, or the scheduler failed) gets one, so that the provider accepts the
 * transcript: TOOL_NOT_STARTED when no `tool/call` was logged (it never ran), and
 * TOOL_OUTCOME_UNKNOWN when it was (it may or may not have run). Nothing is ever run again.
 * The calls a turn awaiting approval will continue (`parked-turn.ts`) are left alone, and that
 * turn is not ended.
 */
import type { Context } from 'cordis'
import { Messages, TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN } from '@rein/kernel'
import { resultEntry } from './session.js'
import type { SessionLog } from './session-log.js'
import type { ParkedTurn } from './parked-turn.js'
import { unanswered } from './transcript.js'

/** Settles and logs every unanswered call of the log; returns how many it repaired. */
export async function repairSession(ctx: Context, log: SessionLog, agent: string, parked?: ParkedTurn): Promise<number> {
  const missing = unanswered(log.all).filter(({ turn, index }) => turn !== parked?.turn || !parked.continuing.has(index))
  const turns = new Set<number>()
  for (const { turn, index, call, started } of missing) {
    const [code, message] = started ? [TOOL_OUTCOME_UNKNOWN, Messages.outcomeUnknown] : [TOOL_NOT_STARTED, Messages.notStarted]
    const result = await ctx.tools.settle(started ?? call, code, message, { turn, index, agent, session: log.session })
    await log.append(resultEntry(turn, index, call.id, result))
    turns.add(turn)
  }
  for (const turn of turns) if (turn !== parked?.turn) await log.append({ type: 'turn/end', turn, outcome: 'repaired' })
  return missing.length
}
