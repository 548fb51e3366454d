/**
 * The pipeline for one call (DESIGN.md §2.1). `execute` always resolves with exactly one
 * well-formed, deep-frozen result: every exception at every stage becomes an error result.
 * A deny is final: nothing after it can produce a success, and guards run after every allow.
 * The caller's signal is checked before pre-execute and again just before the body.
 */
import { runBody, messageOf } from './body.js'
import type { Chains } from './chains.js'
import {
  ABORTED, ABORTED_BEFORE_DISPATCH, INVALID_ARGS, Messages, PIPELINE_FAILED, TOOL_BLOCKED, TOOL_DENIED,
  TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN, UNKNOWN_TOOL,
} from './codes.js'
import { compose, PipelineError, type ChainEntry } from './compose.js'
import { deepFreeze, parseArguments, snapshot } from './json.js'
import type { RegisteredTool, ToolRegistry } from './registry.js'
import { failure, finalizeContent, isContent, resultProblem } from './results.js'
import type {
  ExecuteOptions, Json, PostToolDecision, PreToolDecision, ProgressInfo, ToolCall, ToolExec, ToolExecutionResult,
} from './types.js'

/** Answers an `ask`. The contract of `ctx.approval` (DESIGN.md §2). */
export interface ApprovalService {
  request(req: { exec: ToolExec, reason?: string }): Promise<'allow-once' | 'allow-session' | 'deny'>
}

/** A guard: runs after every allow; a returned reason denies. There is no allow branch. */
export type Guard = (exec: ToolExec) => string | undefined | void | Promise<string | undefined | void>

export interface PipelineDeps {
  registry: ToolRegistry
  chains: Chains
  guards: readonly ChainEntry<Guard>[]
  approval: () => ApprovalService | undefined
  warn: (message: string) => void
}

/** Codes a scheduler may settle a call with, and whether post-execute still runs for them. */
const RUNS_POST: Record<string, boolean> = {
  [ABORTED_BEFORE_DISPATCH]: false,
  [TOOL_NOT_STARTED]: false,
  [TOOL_OUTCOME_UNKNOWN]: false,
  [PIPELINE_FAILED]: false,
}

const TOOL = Symbol('rein.tool')
type Exec = ToolExec & { [TOOL]?: RegisteredTool }
const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({})
const noProgress = () => {}

export class Pipeline {
  constructor(private readonly deps: PipelineDeps) {}

  /** The whole pipeline for one call. Never rejects. */
  async execute(call: ToolCall, options: ExecuteOptions = {}): Promise<ToolExecutionResult> {
    const parsed = parseArguments(call.arguments)
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    const snap = isObject ? snapshot(parsed) : undefined
    const exec = makeExec(call, snap?.ok ? snap.value as Record<string, unknown> : EMPTY_ARGS, options)
    try {
      return await this.run(exec, parsed, snap, options.signal)
    } catch (error) {
      return this.final(exec, failure(PIPELINE_FAILED, `internal error in rein's pipeline: ${messageOf(error)}`, 'kernel'))
    }
  }

  /**
   * Settles a call the scheduler decided without running it (a failed dependency, an invalid
   * plan, an abort before dispatch, a repair on resume). Post-execute runs where the table says so.
   */
  async settle(call: ToolCall, code: string, message: string, options: ExecuteOptions = {}): Promise<ToolExecutionResult> {
    const parsed = parseArguments(call.arguments)
    const snap = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? snapshot(parsed) : undefined
    const exec = makeExec(call, snap?.ok ? snap.value as Record<string, unknown> : EMPTY_ARGS, options)
    const result = failure(code, message)
    return RUNS_POST[code] === false ? this.final(exec, result) : this.post(exec, result)
  }

  private async run(exec: Exec, parsed: unknown, snap: ReturnType<typeof snapshot> | undefined,
    signal: AbortSignal | undefined): Promise<ToolExecutionResult> {
    if (signal?.aborted) return this.final(exec, failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch))
    const tool = this.deps.registry.get(exec.name)
    if (!tool) return this.post(exec, failure(UNKNOWN_TOOL, Messages.unknownTool(exec.name, this.deps.registry.names())))
    const invalid = argumentProblem(tool, parsed, snap)
    if (invalid) return this.post(exec, failure(INVALID_ARGS, `invalid arguments for "${exec.name}": ${invalid}`))
    exec[TOOL] = tool

    let decision: PreToolDecision
    try {
      decision = await this.preChain()(exec)
    } catch (error) {
      return this.final(exec, stageFailure(error))
    }
    switch (decision.kind) {
      case 'allow':
        break
      case 'deny':
        return this.post(exec, failure(TOOL_DENIED, decision.reason))
      case 'ask': {
        const denied = await this.ask(exec, decision.reason)
        if (denied) return this.post(exec, denied)
        break
      }
    }
    for (const guard of this.deps.guards) {
      let reason: string | undefined | void
      try {
        reason = await guard.handler.call(guard.owner, exec)
      } catch (error) {
        return this.final(exec, failure(PIPELINE_FAILED, `guard of plugin "${guard.plugin}" failed: ${messageOf(error)}`, 'guard'))
      }
      if (reason !== undefined && reason !== null) {
        return this.post(exec, failure(TOOL_DENIED, typeof reason === 'string' && reason ? reason : `denied by a guard of plugin "${guard.plugin}"`))
      }
    }
    if (signal?.aborted) return this.final(exec, failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch))

    let result: ToolExecutionResult
    try {
      result = await this.executeChain()(exec)
    } catch (error) {
      return this.final(exec, stageFailure(error))
    } finally {
      if (signal) exec.signal = signal
    }
    if (!result.isError && signal?.aborted) result = failure(ABORTED, Messages.aborted)
    return this.post(exec, result)
  }

  /** `ask` -> the approval service; absent, throwing or answering deny -> a `TOOL_DENIED` result. */
  private async ask(exec: ToolExec, reason: string | undefined) {
    const why = reason ? ` (${reason})` : ''
    const approval = this.deps.approval()
    if (!approval) return failure(TOOL_DENIED, `"${exec.name}" needs approval${why}, and no approval service is available`)
    try {
      const answer = await approval.request({ exec, reason })
      if (answer === 'allow-once' || answer === 'allow-session') return undefined
      return failure(TOOL_DENIED, `"${exec.name}" was denied at approval${why}`)
    } catch (error) {
      return failure(TOOL_DENIED, `"${exec.name}" needs approval${why}, and the approval service failed: ${messageOf(error)}`)
    }
  }

  /** `tools/post-execute`, then the final word. */
  private async post(exec: ToolExec, result: ToolExecutionResult): Promise<ToolExecutionResult> {
    let decision: PostToolDecision
    try {
      decision = await this.postChain()(exec, result)
    } catch (error) {
      return this.final(exec, stageFailure(error))
    }
    return this.final(exec, applyPost(result, decision))
  }

  /** Finalizes content, attaches meta, freezes, and lets the observers see it. */
  private final(exec: ToolExec, result: ToolExecutionResult): ToolExecutionResult {
    let out = finalizeContent(result)
    if (Object.keys(exec.meta).length > 0) {
      const meta = snapshot({ ...exec.meta, ...out.meta })
      if (meta.ok) out = { ...out, meta: meta.value as Record<string, Json> }
    }
    deepFreeze(out)
    for (const observer of this.deps.chains.derive('tools/result', (entries) => entries)) {
      try {
        const returned: unknown = observer.handler.call(observer.owner, exec, out)
        if (returned instanceof Promise) {
          returned.catch((error) => this.deps.warn(`tools/result observer of plugin "${observer.plugin}" failed: ${messageOf(error)}`))
        }
      } catch (error) {
        this.deps.warn(`tools/result observer of plugin "${observer.plugin}" failed: ${messageOf(error)}`)
      }
    }
    return out
  }

  private preChain() {
    return this.deps.chains.derive('tools/pre-execute', (entries) =>
      compose(entries, async () => ALLOW, { stage: 'tools/pre-execute', reentry: 'once', check: preProblem }))
  }

  private executeChain() {
    return this.deps.chains.derive('tools/execute', (entries) =>
      compose(entries, (exec: Exec) => runBody(exec[TOOL]!, exec), {
        stage: 'tools/execute', reentry: 'sequential', check: resultProblem,
        // Each next() hands inward a copy of exec taken at that moment: what a wrapper swapped
        // before calling next() (the signal, progress) reaches every layer inside, but an
        // attempt that was given up on keeps its own copy, so a later attempt's swap never
        // reaches it, nor its restore the later attempt. `meta` is one object for the call.
        fork: ([exec]): [Exec] => [viewOf(exec)],
      }))
  }

  private postChain() {
    return this.deps.chains.derive('tools/post-execute', (entries) =>
      compose(entries, async () => ACCEPT, { stage: 'tools/post-execute', reentry: 'once', check: postProblem }))
  }
}

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })
const ACCEPT: PostToolDecision = Object.freeze({ kind: 'accept' })

function makeExec(call: ToolCall, args: Readonly<Record<string, unknown>>, options: ExecuteOptions): Exec {
  const onProgress = options.onProgress
  let signal = options.signal
  return {
    id: call.id,
    name: call.name,
    arguments: args,
    // A caller without a signal gets one only if something asks for it: an AbortController
    // costs more than the rest of a call.
    get signal() { return signal ??= new AbortController().signal },
    // A write makes `signal` a plain property of the object written to (the call's exec, or a
    // wrapper's view of it), so views never share a swapped signal through this closure.
    set signal(value: AbortSignal) {
      Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true })
    },
    startedAt: Date.now(),
    progress: onProgress ? (info?: ProgressInfo) => onProgress(info) : noProgress,
    turn: options.turn,
    step: options.step,
    index: options.index,
    agent: options.agent,
    parent: options.parent,
    meta: {},
  }
}

/** A copy of `exec` for the layers inside one `next()` (same facts object, own signal and progress). */
function viewOf(exec: Exec): Exec {
  return {
    id: exec.id,
    name: exec.name,
    arguments: exec.arguments,
    signal: exec.signal,
    startedAt: exec.startedAt,
    progress: exec.progress,
    turn: exec.turn,
    step: exec.step,
    index: exec.index,
    agent: exec.agent,
    parent: exec.parent,
    meta: exec.meta,
    [TOOL]: exec[TOOL],
  }
}

function argumentProblem(tool: RegisteredTool, parsed: unknown, snap: ReturnType<typeof snapshot> | undefined) {
  if (typeof parsed === 'string') return 'arguments are not valid JSON'
  if (snap && !snap.ok) return `arguments are not plain JSON (${snap.problem})`
  const lines = tool.validateArgs(snap?.ok ? snap.value : parsed)
  return lines ? lines.join('; ') : undefined
}

function stageFailure(error: unknown) {
  if (error instanceof PipelineError) return failure(PIPELINE_FAILED, error.message, error.stage)
  return failure(PIPELINE_FAILED, `internal error in rein's pipeline: ${messageOf(error)}`, 'kernel')
}

/** Applies a post-execute decision. A deny or failure stays an error whatever is accepted. */
function applyPost(result: ToolExecutionResult, decision: PostToolDecision): ToolExecutionResult {
  if (decision.kind === 'block') return failure(TOOL_BLOCKED, decision.feedback)
  let out = result
  if (decision.content) out = { ...out, content: decision.content }
  if (decision.value !== undefined && !out.isError) {
    const snap = snapshot(decision.value)
    if (!snap.ok) return failure(PIPELINE_FAILED, `tools/post-execute replaced the value with one that is not lossless JSON (${snap.problem})`, 'tools/post-execute')
    out = { ...out, value: snap.value }
  }
  if (decision.additionalContexts?.length) {
    out = { ...out, additionalContexts: [...(out.additionalContexts ?? []), ...decision.additionalContexts] }
  }
  return out
}

function preProblem(value: PreToolDecision): string | undefined {
  switch (value?.kind) {
    case 'allow': return undefined
    case 'deny': return typeof value.reason === 'string' && value.reason ? undefined : 'a deny needs a non-empty reason'
    case 'ask': return value.reason === undefined || typeof value.reason === 'string' ? undefined : 'ask.reason must be a string'
    default: return 'expected { kind: "allow" | "deny" | "ask" }'
  }
}

function postProblem(value: PostToolDecision): string | undefined {
  switch (value?.kind) {
    case 'accept':
      if (value.content !== undefined && !isContent(value.content)) return 'accept.content must be an array of content blocks'
      if (value.additionalContexts !== undefined && !isContent(value.additionalContexts)) return 'accept.additionalContexts must be an array of content blocks'
      return undefined
    case 'block': return typeof value.feedback === 'string' && value.feedback ? undefined : 'a block needs non-empty feedback'
    default: return 'expected { kind: "accept" | "block" }'
  }
}
