/**
 * The pipeline for one call (DESIGN.md §2.1). `execute` always resolves with exactly one
 * well-formed, deep-frozen result: every exception at every stage becomes an error result.
 * A deny is final: nothing after it can produce a success, and guards run after every allow.
 * The caller's signal is checked before pre-execute and again just before the body.
 */
import { ABORTED_FIRST, AbortWatch, abandoned, settleWithin, untilAborted } from './abandon.js'
import { runBody } from './body.js'
import type { Chains } from './chains.js'
import {
  ABORTED_BEFORE_DISPATCH, APPROVAL_PARKED, INVALID_ARGS, Messages, PIPELINE_FAILED, TOOL_DENIED,
  TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN, UNKNOWN_TOOL,
} from './codes.js'
import { checkWith, compose, type ChainEntry } from './compose.js'
import { checkedExec, NO_OPTIONS } from './call-checks.js'
import { CALL, makeExec, viewOf, type Exec } from './exec.js'
import { HOOKS, type HandOffHandler, type OnionHooks } from './hooks.js'
import { messageOf, readSafely } from './hostile.js'
import { applyChecked, argumentsOf, EMPTY_ARGS, isArgumentsRule, type Arguments } from './arguments.js'
import { deepFreeze, snapshot } from './json.js'
import type { ApprovalService } from '@rein/types'
import type { RegisteredTool, ToolRegistry } from './registry.js'
import {
  ACCEPTED, ALLOW, ALLOWED, abortedFrom, applyPost, failure, finalizeContent, internalFailure, postDecisionOf, preDecisionOf, resultOf, stageFailure, unreachable,
} from './results.js'
import { rewritten } from './rewrite.js'
import { closedMessage, type StartupProblem } from './startup.js'
import type {
  ExecuteOptions, Json, PostToolDecision, PreToolDecision, ToolCall, ToolExec, ToolExecutionResult,
} from '@rein/types'

/** A guard: runs after every allow; a returned reason denies. There is no allow branch. */
export type Guard = (exec: ToolExec) => string | undefined | void | Promise<string | undefined | void>

export interface PipelineDeps {
  registry: ToolRegistry
  chains: Chains
  guards: readonly ChainEntry<Guard>[]
  approval: () => ApprovalService | undefined
  warn: (message: string) => void
  /** The plugins of the app that did not start; while there is one, no call runs. */
  startup: () => readonly StartupProblem[]
  /** How long after the caller's abort a call is given up on, whatever its plugins and body do. */
  abandonAfterMs: number
}

/** Codes a scheduler may settle a call with, and whether post-execute still runs for them. */
const RUNS_POST: Record<string, boolean> = {
  [ABORTED_BEFORE_DISPATCH]: false,
  [TOOL_NOT_STARTED]: false,
  [TOOL_OUTCOME_UNKNOWN]: false,
  [PIPELINE_FAILED]: false,
}

export class Pipeline {
  private readonly aborts = new AbortWatch()

  constructor(readonly deps: PipelineDeps) {}

  /** The whole pipeline for one call. Never rejects, and settles soon after the caller's abort. */
  execute(call: ToolCall, options: ExecuteOptions = {}): Promise<ToolExecutionResult> {
    const args = argumentsOf(call)
    const exec = checkedExec(call, args.snap?.ok ? args.snap.value as Record<string, unknown> : EMPTY_ARGS, options, 'execute')
    if (typeof exec === 'string') return Promise.resolve(this.refused(call, exec))
    const signal = exec[CALL].signal
    const problems = this.deps.startup()
    if (problems.length > 0) {
      return Promise.resolve(this.final(exec, failure(PIPELINE_FAILED, closedMessage(problems), 'startup', problems[0]!.plugin)))
    }
    const broken = (error: unknown) => this.final(exec, internalFailure(error))
    let running: Final
    try {
      running = this.run(exec, args, signal)
    } catch (error) {
      return Promise.resolve(broken(error))
    }
    // Final already (nothing was asynchronous): no abort can change it.
    if (!(running instanceof Promise)) return Promise.resolve(running)
    if (!signal) return running.then(undefined, broken)
    return settleWithin(this.aborts, running, broken, signal, this.deps.abandonAfterMs, () => this.final(exec, abandoned(exec)))
  }

  /** Settles a call the scheduler decided without running it; post-execute runs where `RUNS_POST` says so. */
  async settle(call: ToolCall, code: string, message: string, options: ExecuteOptions = {}): Promise<ToolExecutionResult> {
    const { snap } = argumentsOf(call)
    const exec = checkedExec(call, snap?.ok ? snap.value as Record<string, unknown> : EMPTY_ARGS, options, 'settle')
    if (typeof exec === 'string') return this.refused(call, exec)
    const result = failure(code, message)
    try {
      return RUNS_POST[code] === false ? this.final(exec, result) : await this.post(exec, result)
    } catch (error) {
      return this.final(exec, internalFailure(error))
    }
  }

  /** A call `checkedExec` refused: final `PIPELINE_FAILED`, on an exec made without its options. */
  private refused(call: ToolCall, problem: string): Final {
    const exec = makeExec(call, EMPTY_ARGS, NO_OPTIONS)
    return this.final(exec, failure(PIPELINE_FAILED, `${problem}; the call did not run`, 'options'))
  }

  // The stages hand a promise on rather than await it (docs/performance.md): each returns the
  // result when it got there without waiting, else a promise that rejects only with a bug.

  protected run(exec: Exec, args: Arguments, signal: AbortSignal | undefined): Final {
    if (signal?.aborted) return this.final(exec, failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch))
    const tool = this.deps.registry.get(exec.name)
    if (!tool) return this.post(exec, failure(UNKNOWN_TOOL, Messages.unknownTool(exec.name, this.deps.registry.names())))
    const invalid = this.checkArguments(exec, tool, args)
    if (invalid instanceof Promise) return invalid.then((problem) => this.checked(exec, tool, problem, signal))
    return this.checked(exec, tool, invalid, signal)
  }

  /** Bad arguments end here; good ones go through `tools/pre-execute`. */
  private checked(exec: Exec, tool: RegisteredTool, invalid: string | undefined, signal: AbortSignal | undefined): Final {
    if (invalid) return this.post(exec, failure(INVALID_ARGS, `invalid arguments for "${exec.name}": ${invalid}`))
    exec[CALL].tool = tool
    let pending: Promise<PreToolDecision>
    try {
      pending = this.preChain()(exec)
    } catch (error) {
      return this.final(exec, stageFailure(error))
    }
    if (pending === ALLOWED) return this.decided(exec, ALLOW, signal)
    return pending.then((decision) => this.decided(exec, decision, signal), (error) => this.final(exec, stageFailure(error)))
  }

  /** Acts on the (checked) pre-execute decision, which the call's record keeps for observers. */
  private decided(exec: Exec, decision: PreToolDecision, signal: AbortSignal | undefined): Final {
    exec[CALL].decision = decision.kind
    switch (decision.kind) {
      case 'allow':
        if (decision.arguments !== undefined) {
          return rewritten(exec, decision.arguments, (problem) => problem ? this.post(exec, failure(INVALID_ARGS, problem)) : this.guarded(exec, signal))
        }
        return this.deps.guards.length > 0 ? this.guarded(exec, signal) : this.body(exec, signal)
      case 'deny':
        return this.post(exec, failure(TOOL_DENIED, decision.reason))
      case 'ask':
        return this.ask(exec, decision.reason, signal)
      default:
        return this.final(exec, unreachable(decision, 'tools/pre-execute'))
    }
  }

  /** Every guard, in order from `from`: the first reason denies; an object returned (maybe a thenable) is awaited. */
  protected guarded(exec: Exec, signal: AbortSignal | undefined, from = 0): Final {
    const guards = this.deps.guards
    for (let i = from; i < guards.length; i++) {
      const guard = guards[i]!
      let reason: unknown
      try {
        reason = guard.handler.call(guard.owner, exec)
        if ((typeof reason === 'object' && reason !== null) || typeof reason === 'function') {
          return Promise.resolve(reason).then((answer) => answer !== undefined && answer !== null
            ? this.post(exec, guardDenial(guard.plugin, answer))
            : this.guarded(exec, signal, i + 1), (error) => this.final(exec, guardFailure(guard.plugin, error)))
        }
      } catch (error) {
        return this.final(exec, guardFailure(guard.plugin, error))
      }
      if (reason !== undefined && reason !== null) return this.post(exec, guardDenial(guard.plugin, reason))
    }
    return this.body(exec, signal)
  }

  /** The `tools/execute` onion, unless the caller aborted; then post-execute. */
  protected body(exec: Exec, signal: AbortSignal | undefined): Final {
    if (signal?.aborted) return this.final(exec, failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch))
    const stages = exec[CALL].stages
    // Whatever the onion did, the caller's signal is back on exec and the caller is told it ended.
    const ended = () => {
      if (signal) exec.signal = signal
      stages?.bodyEnd?.()
    }
    const chain = this.executeChain() // null with no layer: the body's own reaction goes on to post-execute
    const after = (result: ToolExecutionResult): Final => {
      ended()
      return this.post(exec, !result.isError && signal?.aborted ? abortedFrom(result) : result)
    }
    const failed = (error: unknown): Final => (ended(), this.final(exec, stageFailure(error)))
    try {
      stages?.bodyStart?.()
      return chain === null ? runBody(started(exec), exec, after, failed) : chain(exec).then(after, failed)
    } catch (error) {
      try {
        ended()
      } catch (thrown) {
        return Promise.reject(thrown)
      }
      return this.final(exec, stageFailure(error))
    }
  }

  /**
   * An `ask` goes to the approval service (absent, throwing or deny: `TOOL_DENIED`); an abort while
   * it is pending wins. `'park'` ends the call `APPROVAL_PARKED` (final) where its session records
   * approvals, and is a deny where it does not.
   */
  protected async ask(exec: Exec, reason: string | undefined, signal: AbortSignal | undefined): Promise<ToolExecutionResult> {
    const why = reason ? ` (${reason})` : ''
    const approval = this.deps.approval()
    if (!approval) return this.post(exec, failure(TOOL_DENIED, `"${exec.name}" needs approval${why}, and no approval service is available`))
    let answer: unknown
    let broken: unknown
    try {
      const pending = Promise.resolve(approval.request({ exec, reason }))
      answer = signal ? await untilAborted(this.aborts, pending, signal) : await pending
    } catch (error) {
      broken = error
    }
    if (answer === ABORTED_FIRST || signal?.aborted) return this.final(exec, failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch))
    if (broken !== undefined) return this.post(exec, failure(TOOL_DENIED, `"${exec.name}" needs approval${why}, and the approval service failed: ${messageOf(broken)}`))
    if (answer === 'park') {
      if (exec.session?.approvals) return this.final(exec, failure(APPROVAL_PARKED, `"${exec.name}" awaits approval${why}`))
      return this.post(exec, failure(TOOL_DENIED, `"${exec.name}" needs approval${why}, and cannot wait for it here (its session records no approvals)`))
    }
    if (answer !== 'allow-once' && answer !== 'allow-session') return this.post(exec, failure(TOOL_DENIED, `"${exec.name}" was denied at approval${why}`))
    return this.deps.guards.length > 0 ? this.guarded(exec, signal) : this.body(exec, signal)
  }

  /** What is wrong with the arguments, or undefined (a promise only for an asynchronous schema). */
  private checkArguments(exec: Exec, tool: RegisteredTool, { parsed, snap }: Arguments): string | undefined | Promise<string | undefined> {
    if (typeof parsed === 'string') return 'arguments are not valid JSON'
    if (snap && !snap.ok) return isArgumentsRule(snap.problem) ? snap.problem : `arguments are not plain JSON (${snap.problem})`
    // Most schemas answer at once: only an asynchronous one costs an await.
    const checked = tool.checkArgs(snap?.ok ? snap.value : parsed)
    return checked instanceof Promise ? checked.then((answer) => applyChecked(exec, answer)) : applyChecked(exec, checked)
  }

  /** `tools/post-execute` (after the caller's turn for it), then the final word. */
  protected post(exec: Exec, result: ToolExecutionResult): Final {
    const record = exec[CALL]
    record.outcome = result
    let turn: Promise<void> | void | undefined
    try {
      turn = record.stages?.postTurn?.()
    } catch (error) {
      return this.final(exec, stageFailure(error))
    }
    if (!turn) return this.postChain(exec, result)
    return Promise.resolve(turn).then(() => this.postChain(exec, result), (error) => this.final(exec, stageFailure(error)))
  }

  private postChain(exec: Exec, result: ToolExecutionResult): Final {
    let pending: Promise<PostToolDecision>
    try {
      pending = this.postOnion()(exec, result)
    } catch (error) {
      return this.final(exec, stageFailure(error))
    }
    if (pending === ACCEPTED) return this.final(exec, result)
    return pending.then((decision) => this.final(exec, applyPost(result, decision)), (error) => this.final(exec, stageFailure(error)))
  }

  /**
   * Finalizes content, attaches meta, freezes, shows the observers and hands it on, once per
   * call (a late second final word, after the call was abandoned, is dropped): the result, or
   * while a `tools/hand-off` hold has it, a promise of it.
   */
  final(exec: Exec, result: ToolExecutionResult): Final {
    const record = exec[CALL]
    if (record.final) return record.final
    let out: ToolExecutionResult
    try {
      out = finalizeContent(result)
      if (hasKeys(exec.meta)) {
        const meta = snapshot({ ...exec.meta, ...out.meta })
        if (meta.ok) out = { ...out, meta: meta.value as Record<string, Json> }
      }
      deepFreeze(out)
    } catch (error) {
      out = internalFailure(error)
    }
    record.final = out
    try {
      record.stages?.postEnd?.()
    } catch (error) {
      this.failed('the caller\'s postEnd stage callback', undefined, error)
    }
    for (const observer of this.deps.chains.derive('tools/result', (entries) => entries)) {
      const returned = this.invoke('tools/result observer', observer, exec, out)
      if (returned !== undefined) Promise.resolve(returned).then(undefined, (error) => this.failed('tools/result observer', observer.plugin, error))
    }
    const holds = this.deps.chains.derive('tools/hand-off', (entries) => entries)
    return holds.length === 0 ? out : this.handOff(exec, out, holds)
  }

  /** `tools/hand-off`: the holds of `out`, then `out` itself, whatever the holds did. */
  private handOff(exec: Exec, out: ToolExecutionResult, holds: readonly ChainEntry<HandOffHandler>[]): Final {
    let waiting: Promise<ToolExecutionResult>[] | undefined
    for (const hold of holds) {
      const returned = this.invoke('tools/hand-off handler', hold, exec, out)
      if (returned === undefined) continue
      const contained = Promise.resolve(returned).then(() => out, (error) => {
        this.failed('tools/hand-off handler', hold.plugin, error)
        return out
      })
      ;(waiting ??= []).push(contained)
    }
    if (waiting === undefined) return out
    return waiting.length === 1 ? waiting[0]! : Promise.all(waiting).then(() => out)
  }

  /** Calls an observer or a hold with the final result: the thenable it returned, or undefined; a throw is logged. */
  private invoke(what: string, entry: ChainEntry<(exec: ToolExec, out: ToolExecutionResult) => unknown>, exec: Exec, out: ToolExecutionResult) {
    try {
      const returned: unknown = entry.handler.call(entry.owner, exec, out)
      return typeof readSafely(returned, 'then') === 'function' ? returned as PromiseLike<unknown> : undefined
    } catch (error) {
      this.failed(what, entry.plugin, error)
      return undefined
    }
  }

  /** Logs what failed after the result was final; a logger that throws cannot be told anything. */
  private failed(what: string, plugin: string | undefined, error: unknown): void {
    try {
      this.deps.warn(`${what}${plugin === undefined ? '' : ` of plugin "${plugin}"`} failed: ${messageOf(error)}`)
    } catch { /* nothing left to tell */ }
  }

  private preChain() {
    return this.deps.chains.derive('tools/pre-execute', (entries) => compose(entries, () => ALLOWED, onion('tools/pre-execute', preDecisionOf)))
  }

  /** The composed `tools/execute` onion, or null when it has no layer. */
  private executeChain() {
    return this.deps.chains.derive('tools/execute', (entries) => entries.length === 0 ? null : compose(entries, (exec: Exec) => runBody(started(exec), exec, same), {
      ...onion('tools/execute', resultOf),
      // Each next() hands inward a copy of exec taken at that moment: what a wrapper swapped
      // before calling next() reaches every layer inside, but an attempt given up on keeps its
      // own copy, so a later attempt's swap (or restore) never reaches it.
      fork: ([exec]): [Exec] => [viewOf(exec)],
    }))
  }

  private postOnion() {
    return this.deps.chains.derive('tools/post-execute', (entries) => compose(entries, () => ACCEPTED, onion('tools/post-execute', postDecisionOf)))
  }
}

/** How `compose` runs the onion `stage`, whose handlers' values `normalize` reads. */
function onion<R>(stage: keyof OnionHooks, normalize: (value: unknown) => R | string) {
  return { stage, reentry: HOOKS[stage].reentry, check: checkWith(normalize) }
}

const same = (result: ToolExecutionResult) => result

/** The call's body starts now: its tool. */
function started(exec: Exec): RegisteredTool {
  const record = exec[CALL]
  record.bodyStarted = true
  return record.tool!
}

/** A call's final word: the result, or (while a `tools/hand-off` hold has it) a promise of it. */
export type Final = ToolExecutionResult | Promise<ToolExecutionResult>

/** Whether `object` has an own enumerable key, without building the list of them. */
function hasKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true
  return false
}

/** A guard that threw or rejected: the call fails closed, naming the plugin. */
function guardFailure(plugin: string, error: unknown): ToolExecutionResult {
  return failure(PIPELINE_FAILED, `guard of plugin "${plugin}" failed: ${messageOf(error)}`, 'guard', plugin)
}

/** A guard's reason: a deny, with the reason as given when it is a non-empty string. */
function guardDenial(plugin: string, reason: unknown): ToolExecutionResult {
  return failure(TOOL_DENIED, typeof reason === 'string' && reason ? reason : `denied by a guard of plugin "${plugin}"`)
}
