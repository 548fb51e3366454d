/**
 * `@rein/agent`: the agent loop. It asks the model, schedules the tool calls it gets back
 * (in parallel where that is safe, dependencies honoured), commits their results in the order
 * the model asked for them, and keeps the conversation in a durable, repairable session log.
 *
 *   const agent = createAgent(ctx, { provider, session: jsonlSession('run.jsonl') })
 *   const { kind, messages } = await agent.run('task', { signal })
 */
export { createAgent, maxTurnsNotice, type Agent, type AgentOptions, type RunOptions, type RunOutcome } from './agent.js'
export {
  memorySession, type SessionStore, type SessionEntry, type NewSessionEntry, type LoggedCall, type SubCallRef,
} from './session.js'
export type { TurnOutcome, CallTiming } from '@rein/types'
export { jsonlSession } from './jsonl-session.js'
export { answerApproval, pendingApprovals, type AnswerOptions, type PendingApproval } from './approvals.js'
export type { ParkedCall, ApprovalsMode } from './approval-book.js'
export { stateOf, PluginState } from './session-state.js'
export { redactedSession, redactEntry, type TextRedactor } from './session-redact.js'
export { parseSessionLog, readSession, SessionLogError, type SessionLogContents } from './session-file.js'
export { newEntryProblem, sessionEntryProblem } from './session-entry.js'
export { ApprovalLedger } from './approval-entries.js'
export { buildMessages, unanswered, type Unanswered } from './transcript.js'
export { DEPENDS_ON, referencedIds } from './references.js'
export type {
  AgentEventMap, RunFacts, RunStartEvent, RunEndEvent, ModelRequestEvent, ModelResponseEvent,
  CallStartEvent, CallEndEvent, TurnEndEvent, TextDeltaEvent, RunEventName, RunObserver,
} from './events.js'
