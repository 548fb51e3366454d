/**
 * `ctx.tools`: the kernel as a cordis service. It takes `ctx.on('tools/...')` listeners into
 * its own chains (through cordis' `internal/listener`), scoped to the registering plugin, so
 * disposing a plugin removes exactly its hooks, tools and guards. Two contexts never share
 * any state: the registry, chains and ajv instance all belong to this service.
 */
import { Context, Service } from 'cordis'
import { Chains } from './chains.js'
import { interceptListeners, pluginName, serviceTarget, untraced } from '@rein/cordis-internals'
import type { ChainEntry } from './compose.js'
import type { ToolDefinition } from './define-tool.js'
import type { HandOffHandler, HookName, OnionHooks, ResultObserver } from './hooks.js'
import { parseArguments } from './json.js'
import type { ApprovalPrompt, ApprovalService } from '@rein/types'
import { Pipeline, type Guard } from './pipeline.js'
import { adopt } from './adopt.js'
import { decide, observe, type Decision, type ObserveOptions } from './decide.js'
import { ToolRegistry, type RegisteredTool } from './registry.js'
import { DEFAULT_ABANDON_AFTER_MS, type KernelConfig } from './config.js'
import { startupProblems, watchStartup, type StartupProblem } from './startup.js'
import type { ExecuteOptions, ExecutionMode, ToolCall, ToolExecutionResult, ToolSpec } from '@rein/types'

declare module 'cordis' {
  interface Context {
    tools: ToolService
    approval?: ApprovalService
    approvalPrompt?: ApprovalPrompt
  }
  interface Events<C> {
    'tools/pre-execute': OnionHooks['tools/pre-execute']
    'tools/execute': OnionHooks['tools/execute']
    'tools/post-execute': OnionHooks['tools/post-execute']
    'tools/result': ResultObserver
    'tools/hand-off': HandOffHandler
  }
}

const CORE = Symbol('rein.tools.core')

interface Core {
  registry: ToolRegistry
  chains: Chains
  guards: ChainEntry<Guard>[]
  pipeline: Pipeline
}

export class ToolService extends Service {
  private readonly [CORE]: Core
  /** How long after a caller's abort a call is given up on (kernel config `abandonAfterMs`); the agent keeps its model to it too. */
  readonly abandonAfterMs: number

  constructor(ctx: Context, config: Partial<KernelConfig> = {}) {
    super(ctx, 'tools', true)
    this.abandonAfterMs = config.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS
    const registry = new ToolRegistry(config.compileSchema)
    const chains = new Chains()
    const guards: ChainEntry<Guard>[] = []
    const logger = ctx.logger('tools')
    const pipeline = new Pipeline({
      registry,
      chains,
      guards,
      approval: () => ctx.get('approval') as ApprovalService | undefined,
      warn: (message) => logger.warn(message),
      startup: watchStartup(ctx),
      abandonAfterMs: this.abandonAfterMs,
    })
    this[CORE] = { registry, chains, guards, pipeline }

    interceptListeners(ctx, Chains.has, (owner, name, handler, prepend) =>
      chains.add(name as HookName, { handler: handler as never, owner: untraced(owner), plugin: pluginName(owner) }, prepend))
  }

  /** Registers a tool for as long as the calling plugin lives. Throws on a bad definition. */
  register(definition: ToolDefinition): () => void {
    const { registry } = this[CORE]
    const plugin = pluginName(this.ctx)
    return this.ctx.effect(() => registry.add(definition, plugin))
  }

  /** Adds a guard for as long as the calling plugin lives. A guard returns a reason to deny, or undefined. */
  guard(guard: Guard): () => void {
    const { guards } = this[CORE]
    const entry: ChainEntry<Guard> = { handler: serviceTarget(guard), owner: untraced(this.ctx), plugin: pluginName(this.ctx) }
    return this.ctx.effect(() => {
      guards.push(entry)
      return () => {
        const index = guards.indexOf(entry)
        if (index >= 0) guards.splice(index, 1)
      }
    })
  }

  /**
   * Runs the whole pipeline for one call. Always resolves with exactly one result. (The
   * call-path members are bound functions, safe to read once and call many times.)
   */
  readonly execute = (call: ToolCall, options?: ExecuteOptions): Promise<ToolExecutionResult> =>
    this[CORE].pipeline.execute(call, options)

  /**
   * Settles a call that the scheduler decided without running it (`DEPENDENCY_FAILED`,
   * `INVALID_PLAN`, `ABORTED_BEFORE_DISPATCH`, `TOOL_NOT_STARTED`, `TOOL_OUTCOME_UNKNOWN`).
   */
  readonly settle = (call: ToolCall, code: string, message: string, options?: ExecuteOptions): Promise<ToolExecutionResult> =>
    this[CORE].pipeline.settle(call, code, message, options)

  /** Commits the value of a call whose effect already happened (a `reconcile` answered `ran: true`): output check, render, post-execute. */
  readonly adopt = (call: ToolCall, value: unknown, options?: ExecuteOptions): Promise<ToolExecutionResult> =>
    adopt(this[CORE].pipeline, call, value, options)

  /** What the pipeline would decide for `call` before its body (checks, pre-execute, guards); runs nothing else. */
  readonly decide = (call: ToolCall, options?: ExecuteOptions): Promise<Decision> => decide(this[CORE].pipeline, call, options)

  /** Hands a call the host ran (or refused), with its result, to the `tools/result` observers and holds. */
  readonly observe = (call: ToolCall, result: ToolExecutionResult, options?: ObserveOptions): Promise<ToolExecutionResult> =>
    observe(this[CORE].pipeline, call, result, options)

  /**
   * 'parallel' only for a known tool, valid arguments, and `isConcurrencySafe(args) === true`
   * (DESIGN.md §3); anything else, a throw included, is 'exclusive': fail closed.
   */
  readonly executionMode = (call: ToolCall): ExecutionMode => {
    const tool: RegisteredTool | undefined = this[CORE].registry.get(call.name)
    const safe = tool?.definition.isConcurrencySafe
    if (!safe) return 'exclusive'
    try {
      const args = parseArguments(call.arguments)
      const checked = tool.checkArgs(args)
      // A schema that answers later cannot classify now.
      if (checked instanceof Promise || !checked.ok) return 'exclusive'
      return safe.call(tool.definition, 'value' in checked ? checked.value : args) === true ? 'parallel' : 'exclusive'
    } catch {
      return 'exclusive'
    }
  }

  /**
   * Checks arguments against a registered tool's schema, as a call would (for `rein check`'s
   * examples): the model-readable problem lines, or undefined when they pass.
   */
  readonly checkArguments = (name: string, args: unknown): string[] | undefined => {
    const tool = this[CORE].registry.get(name)
    if (!tool) return [`unknown tool "${name}"`]
    const checked = tool.checkArgs(args)
    if (checked instanceof Promise) return ['the schema validates asynchronously, so it cannot be checked ahead of a call']
    return checked.ok ? undefined : checked.lines
  }

  /** What the model is shown: `[{ name, description, parameters }]`, nothing else. */
  readonly specs = (): readonly ToolSpec[] => this[CORE].registry.specs()

  /** The definition of a registered tool, or undefined. */
  readonly get = (name: string): ToolDefinition | undefined => this[CORE].registry.get(name)?.definition

  /** The plugins of this app that did not start (while there is one, every call fails closed). */
  startupProblems(): StartupProblem[] {
    return startupProblems(this.ctx)
  }

  /** The names of the plugins on one hook (or the guards), outermost first. */
  chain(name: HookName | 'guards'): string[] {
    const { chains, guards } = this[CORE]
    return (name === 'guards' ? guards : chains.list(name)).map((entry) => entry.plugin)
  }
}
