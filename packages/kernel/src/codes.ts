/**
 * The catalogue of result codes. Every failed tool call carries exactly one of these in
 * `error.info.code` (or the thrown error's own `code` when a tool body throws one), so that
 * policies, logs and tests match on a stable string instead of on message text.
 */

/** The caller's signal was aborted before the body started. Final: post-execute does not run. */
export const ABORTED_BEFORE_DISPATCH = 'ABORTED_BEFORE_DISPATCH'
/** The caller aborted after the body started; replaces a successful outcome only. */
export const ABORTED = 'ABORTED'
/** The model named a tool that is not registered. */
export const UNKNOWN_TOOL = 'UNKNOWN_TOOL'
/** The arguments are not JSON or fail the tool's parameter schema. */
export const INVALID_ARGS = 'INVALID_ARGS'
/** Denied by a pre-execute handler, the approval service or a guard. */
export const TOOL_DENIED = 'TOOL_DENIED'
/** The tool body threw an error without a string `code` of its own. */
export const TOOL_FAILED = 'TOOL_FAILED'
/** The body's value is not lossless JSON or fails the tool's output schema. */
export const INVALID_TOOL_OUTPUT = 'INVALID_TOOL_OUTPUT'
/** The tool's `render` threw. */
export const RENDER_FAILED = 'RENDER_FAILED'
/** The timeout plugin's deadline fired. */
export const TOOL_TIMEOUT = 'TOOL_TIMEOUT'
/** A post-execute handler blocked the result. */
export const TOOL_BLOCKED = 'TOOL_BLOCKED'
/** A plugin handler threw (or broke the hook contract); `info.name` names the stage. */
export const PIPELINE_FAILED = 'PIPELINE_FAILED'
/** A call this one depends on (in the same batch) failed; the body never ran. */
export const DEPENDENCY_FAILED = 'DEPENDENCY_FAILED'
/** A reference cycle, or a reference to no call of the batch / no path of its value. */
export const INVALID_PLAN = 'INVALID_PLAN'
/** On resume: the call was requested but never started. */
export const TOOL_NOT_STARTED = 'TOOL_NOT_STARTED'
/** On resume: the call started but left no durable result; it may or may not have run. */
export const TOOL_OUTCOME_UNKNOWN = 'TOOL_OUTCOME_UNKNOWN'
/** The call waits for a person's approval, recorded in its session (DESIGN.md §7.2). Final: post-execute does not run. */
export const APPROVAL_PARKED = 'APPROVAL_PARKED'
/** A per-session budget (calls, calls of one tool, body time, cost) is spent: `@rein/plugin-budget`. */
export const BUDGET_EXCEEDED = 'BUDGET_EXCEEDED'
/** The same tool with the same arguments, called again and again: `@rein/plugin-budget`'s loop breaker. */
export const LOOP_DETECTED = 'LOOP_DETECTED'

/** Every code the kernel and the scheduler produce themselves. */
export const ResultCodes = {
  ABORTED_BEFORE_DISPATCH,
  ABORTED,
  UNKNOWN_TOOL,
  INVALID_ARGS,
  TOOL_DENIED,
  TOOL_FAILED,
  INVALID_TOOL_OUTPUT,
  RENDER_FAILED,
  TOOL_TIMEOUT,
  TOOL_BLOCKED,
  PIPELINE_FAILED,
  DEPENDENCY_FAILED,
  INVALID_PLAN,
  TOOL_NOT_STARTED,
  TOOL_OUTCOME_UNKNOWN,
  APPROVAL_PARKED,
} as const

export type ResultCode = typeof ResultCodes[keyof typeof ResultCodes]

/** How many characters of a failed dependency's message a `DEPENDENCY_FAILED` message repeats. */
export const DEPENDENCY_MESSAGE_LIMIT = 400

/** `text`, cut to `limit` characters (never inside a surrogate pair) with how much was left out. */
function capped(text: string, limit: number): string {
  if (text.length <= limit) return text
  const cut = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit
  return `${text.slice(0, cut)}... (${text.length - cut} more characters)`
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff

/** The fixed message texts of the table in DESIGN.md §2.1 (the model sees `Error: <message>`). */
export const Messages = {
  abortedBeforeDispatch: 'tool call aborted before dispatch',
  aborted: 'tool call aborted',
  timedOut: (ms: number) => `tool call timed out after ${ms}ms`,
  unknownTool: (name: string, known: readonly string[]) =>
    `unknown tool "${name}". Available tools: ${known.length ? known.join(', ') : '(none)'}`,
  /**
   * `id` failed; `message` is the failure that started it: `id`'s own, or (`cause`) that of the
   * call whose failure reached `id` through its own dependencies. Capped, so that a chain of
   * failed dependencies costs the same per call however long it is.
   */
  dependencyFailed: (id: string, message: string, cause?: string) =>
    `depends on ${id}, which failed${cause === undefined ? '' : ` because ${cause} failed`}: ${capped(message, DEPENDENCY_MESSAGE_LIMIT)}`,
  notStarted: 'tool call was never started (the run stopped before it); it did not run',
  outcomeUnknown: 'tool call was interrupted and left no result; it may or may not have run; check before retrying',
} as const
