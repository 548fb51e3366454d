/**
 * The data that crosses the pipeline: JSON values, content blocks, calls and results, the
 * `exec` every hook sees, the decisions and the options of a call. These shapes are the public
 * contract of DESIGN.md §2; the kernel, plugins, tool sources and the agent loop all speak them,
 * and `@rein/kernel` re-exports every one.
 */
import type { SessionApprovals } from './approval.js'

/** A JSON value: what arguments and tool values must be (checked losslessly). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** What the model is shown for one result, one block at a time. */
export type ContentBlock =
  | { type: 'text', text: string }
  | { type: 'image', data: string, mimeType: string }

/** One tool call as the model made it. `arguments` is the raw JSON string or a parsed object. */
export interface ToolCall {
  id: string
  name: string
  arguments: string | Record<string, unknown> | unknown
}

/** The `error` of a failed result. `info.code` is one of the codes in `codes.ts`, or a tool's own. */
export interface ToolError {
  message: string
  /** `code`: the result code; `name`: the error's name or the failing stage; `plugin`: the plugin a stage failure belongs to. */
  info?: { name?: string, code?: string, plugin?: string }
}

/** A successful result. `value` is the frozen lossless JSON the body returned. */
export interface ToolSuccess {
  isError: false
  value: Json
  content: ContentBlock[]
  additionalContexts?: ContentBlock[]
  /** Ends the agent loop after this call's batch commits. */
  concludesTurn?: true
  /** Facts plugins add for observers (attempts, cache hit, spill locator...). Never shown to the model. */
  meta?: Record<string, Json>
}

/** A failed result. The first content block is always the text `Error: <message>`. */
export interface ToolFailure {
  isError: true
  content: ContentBlock[]
  error: ToolError
  additionalContexts?: ContentBlock[]
  /** Ends the agent's run after this call's batch commits: the run resolves `stopped` (a budget's `onExceeded: end-run`). */
  endsRun?: true
  meta?: Record<string, Json>
}

/** The one outcome every call gets. */
export type ToolExecutionResult = ToolSuccess | ToolFailure

/** What a `tools/pre-execute` chain decides. */
export type PreToolDecision =
  | { kind: 'allow', /** replaces the call's arguments (checked against the schema, then every guard) */ arguments?: Readonly<Record<string, unknown>> }
  | { kind: 'deny', reason: string }
  | { kind: 'ask', reason?: string }

/** What a `tools/post-execute` chain decides. */
export type PostToolDecision =
  | { kind: 'accept', content?: ContentBlock[], value?: Json, additionalContexts?: ContentBlock[] }
  | { kind: 'block', feedback: string }

/** What a tool reports through `exec.progress(info)`: free-form, for liveness and display. */
export interface ProgressInfo {
  message?: string
  progress?: number
  total?: number
}

/**
 * One call in flight, as every hook and the tool body see it. `arguments` is frozen.
 * A `tools/execute` wrapper may replace `signal` for the layers inside it and must restore it.
 */
export interface ToolExec {
  readonly id: string
  readonly name: string
  readonly arguments: Readonly<Record<string, unknown>>
  signal: AbortSignal
  /** `Date.now()` when the pipeline began for this call. */
  readonly startedAt: number
  /** How a tool reports liveness; the timeout plugin may treat it as a heartbeat. */
  progress: (info?: ProgressInfo) => void
  readonly turn?: number
  readonly step?: number
  readonly index?: number
  readonly agent?: string
  readonly parent?: string
  /** The session this call belongs to (the agent's store id; an MCP session...), when there is one. */
  readonly session?: SessionRef
  /**
   * An opaque key naming this call wherever it runs (DESIGN.md §7.3): a hash of the session id,
   * the turn, `parent` and the call id. The same across retry attempts, a resume in another
   * process and a worker takeover; different in another session. Hand it to an API's
   * `Idempotency-Key` so a call run twice has its effect once.
   */
  readonly idempotencyKey: string
  /** Scratch space for plugins to pass facts about this call to observers (copied to `result.meta`). */
  readonly meta: Record<string, Json>
  /**
   * What `tools/pre-execute` decided, as the kernel acted on it (`ask` stays `ask` whatever the
   * approval answered); undefined before, and for a call that never got there (an unknown
   * tool, bad arguments, a call the scheduler settled). For observers, such as an audit log.
   */
  readonly decision?: PreToolDecision['kind']
  /** The arguments the call came with, when `tools/pre-execute` rewrote them (`arguments` holds the new ones). */
  readonly originalArguments?: Readonly<Record<string, unknown>>
}

/** Names the session a call belongs to (DESIGN.md §7.1): a file store's path as given, a database's id. */
export interface SessionRef {
  readonly id: string
  /** The session's plugin state, when its owner keeps one (the agent does); absent, per-session plugins keep nothing. */
  readonly state?: SessionState
  /** The approvals the session records, when its owner can keep a call waiting for one (the agent can). */
  readonly approvals?: SessionApprovals
}

/**
 * Per-session plugin state, written into the session itself (DESIGN.md §7.1): it survives a
 * resume in another process and is never seen by another session. Keys are namespaced by the
 * plugin's name; the latest value set wins. A value set is visible at once to every later `get`
 * in this process, and durable before the result of the call it was set during commits.
 */
export interface SessionState {
  /** The latest value `plugin` set for `key` in this session (deep-frozen), or undefined. */
  get(plugin: string, key: string): Json | undefined
  /** Sets it. Throws a TypeError when `plugin` is empty or `value` is not JSON. */
  set(plugin: string, key: string, value: Json): void
}

/** Options of one `ctx.tools.execute`. */
export interface ExecuteOptions {
  signal?: AbortSignal
  turn?: number
  step?: number
  index?: number
  agent?: string
  parent?: string
  /** The session the call belongs to: per-session plugins keep their state there; absent, they keep none. */
  session?: SessionRef
  /** Receives every `exec.progress()` report of this call, after the plugins' listeners. */
  onProgress?: (info: ProgressInfo | undefined) => void
  /** The caller's hold on this call's stages (a scheduler orders stages across calls with it). */
  stages?: StageCallbacks
}

/**
 * Called by the kernel at the edges of one call's stages, outside every plugin's handler. A
 * scheduler uses them to keep pre-execute and post-execute in model order across parallel calls.
 */
export interface StageCallbacks {
  /** Pre-execute, approval and guards allowed the call; the body's onion is about to begin. */
  bodyStart?(): void
  /** The body's onion returned (or failed). */
  bodyEnd?(): void
  /** Post-execute is about to run for this call; the kernel waits for the returned promise. */
  postTurn?(): Promise<void> | void
  /**
   * The call's result is final (post-execute is over, or was never due): called once, before
   * the `tools/result` observers and the `tools/hand-off` holds, which may keep the result a
   * little longer. A throw is logged and changes nothing.
   */
  postEnd?(): void
}

/** How the scheduler may run a call: alongside others, or alone. */
export type ExecutionMode = 'parallel' | 'exclusive'
