/**
 * The harness's agents, built from `@rein/agent`'s `createAgent` with the provider and the
 * `agent` section; their system prompt is `agent.system` followed by the few-shot examples
 * (`system-prompt.ts`), worked out once per harness. `harness.agent` is built lazily, on first
 * use, which keeps commands that never run a model (`rein check`, `rein chains`) working without
 * a provider; a missing provider or an example its tool rejects is thrown when `.agent` is
 * first read. `harness.agentFor(session)` builds a fresh agent on another session, on the same
 * Context, each time it is called: how one loaded harness runs many sessions (a queue worker).
 * A session the loader opened from the file's `session` path is closed with the harness.
 *
 * `@rein/agent` itself (one bundle) is imported by `importAgentModule`, while the
 * harness is built, and only when the harness can build an agent: it has a provider and was not
 * loaded `inspectOnly`. It is not imported on first use instead because `harness.agent` and
 * `agentFor(session)` are synchronous (a getter, and a call a worker makes per run) and stay so:
 * an import is asynchronous. A harness without a provider never needs the module (`.agent`
 * throws "no provider" first); `rein chains` and `rein check`, which never build an agent (and
 * chains passes a stand-in provider), say so with `inspectOnly` and do not load it either.
 */
import type { Context } from 'cordis'
import type { Provider } from '@rein/kernel'
import { createRedactor } from '@rein/redact'
import type { Agent, SessionStore } from '@rein/agent'
import type { AgentSettings } from './config.js'
import { ConfigError, LoaderCodes } from './errors.js'
import type { PromptSources } from './examples.js'
import { systemPrompt } from './system-prompt.js'

/** What the agents are built with, from `@rein/agent`. */
export type AgentModule = Pick<typeof import('@rein/agent'), 'createAgent' | 'jsonlSession' | 'redactedSession'>

/**
 * Imports `@rein/agent` when a harness with `provider` can build an agent (there is one, and
 * the harness is not `inspectOnly`); else resolves undefined without loading it. Called once
 * per harness by `buildHarness`, as the provider is resolved; changes nothing else.
 */
export async function importAgentModule(provider: Provider | undefined, inspectOnly: boolean): Promise<AgentModule | undefined> {
  if (provider === undefined || inspectOnly) return undefined
  const { createAgent, jsonlSession, redactedSession } = await import('@rein/agent')
  return { createAgent, jsonlSession, redactedSession }
}

/** What the lazy agent needs to know. */
export interface AgentPlan {
  ctx: Context
  /** The config file, for error messages; undefined for a harness built in code. */
  file: string | undefined
  /** Which function to pass a provider to, for the "no provider" message. */
  builder: 'loadHarness' | 'createHarness'
  settings: AgentSettings
  provider: Provider | undefined
  /** A session store passed in code (the caller owns it), else the `session` path of the file. */
  session: SessionStore | undefined
  sessionPath: string | undefined
  /** The example files and where `agent.system` is written, read at load; none for a harness built in code. */
  prompt?: PromptSources
  /** Loaded to be inspected only (`rein chains`, `rein check`): no agent is ever built. */
  inspectOnly?: boolean
  /** `@rein/agent`, from `importAgentModule`: undefined when there is no provider or `inspectOnly`. */
  module: AgentModule | undefined
}

/** Options of `harness.agentFor(session, options)`. */
export interface AgentForOptions {
  /**
   * Names the agent in its events (`agent/run-start` ...) and in `exec.agent` of its calls
   * (default `agent`). Agents that run at once on one harness should have different names, so
   * that listeners and plugins can tell their runs and calls apart.
   */
  name?: string
  /**
   * How this agent treats an ask nobody has answered, over the file's `agent.approvals`: `park`
   * (the run ends `awaiting-approval`, DESIGN.md §7.2) or `ask` (a live asker, else deny). A
   * queue worker parks by default: nobody is at its terminal.
   */
  approvals?: 'ask' | 'park'
}

/** The harness's agents: `get()` the one on the harness's own session, `forSession` a new one per call. */
export interface LazyAgent {
  get(): Agent
  forSession(session: SessionStore, options?: AgentForOptions): Agent
  /** Disposes every agent made here, closes a session the loader opened; later calls throw. */
  dispose(): Promise<void>
}

/** Prepares the agents without building any. */
export function lazyAgent(plan: AgentPlan): LazyAgent {
  let agent: Agent | undefined
  let opened: SessionStore | undefined
  let disposed = false
  // Worked out on first success only: a failure (an example its tool rejects) is thrown again each time.
  let prompt: { system: string | undefined } | undefined
  const made = new Set<Agent>()
  const unavailable = (detail: string) => new ConfigError(LoaderCodes.AGENT_UNAVAILABLE, { file: plan.file }, detail)

  /** `session(module)` is asked for the store only once the checks have passed. */
  const build = (session: (module: AgentModule) => SessionStore | undefined, name: string | undefined, approvals?: 'ask' | 'park'): Agent => {
    if (disposed) throw unavailable('the harness was disposed: load a new one to run an agent')
    if (plan.inspectOnly) throw unavailable('the harness was loaded with { inspectOnly: true }, which builds no agent: load it without inspectOnly to run one')
    // `module` is undefined only without a provider (or inspectOnly, above).
    const module = plan.module
    if (!plan.provider || !module) {
      throw unavailable(plan.builder === 'loadHarness'
        ? 'no provider: add a "provider: { use, config }" section, or pass { provider } to loadHarness'
        : 'no provider: pass { provider } to createHarness')
    }
    prompt ??= { system: systemPrompt(plan.ctx, plan.settings.system, plan.prompt) }
    const { system } = prompt
    const { redactSession, ...settings } = plan.settings
    const given = session(module)
    // Every store the agent writes to is wrapped, whoever opened it (the file's path, code, agentFor).
    const store = given && redactSession !== undefined
      ? module.redactedSession(given, createRedactor([], { extra: redactSession === true ? [] : redactSession }))
      : given
    return module.createAgent(plan.ctx, {
      ...settings, provider: plan.provider,
      ...(system === undefined ? {} : { system }),
      ...(store ? { session: store } : {}),
      ...(name === undefined ? {} : { name }),
      ...(approvals === undefined ? {} : { approvals }),
    })
  }

  return {
    get: () => agent ??= build((module) => {
      if (plan.session || plan.sessionPath === undefined) return plan.session
      return opened = module.jsonlSession(plan.sessionPath)
    }, undefined),
    forSession(session, options = {}) {
      if (typeof session?.load !== 'function' || typeof session.append !== 'function') {
        throw unavailable('agentFor(session): session must be a SessionStore (load() and append(entry)), e.g. memorySession() or postgresSession({ ... })')
      }
      const name = options.name
      if (name !== undefined && (typeof name !== 'string' || name === '')) {
        throw unavailable(`agentFor(session, { name }): name must be a non-empty string, got ${JSON.stringify(name)}`)
      }
      const approvals = options.approvals
      if (approvals !== undefined && approvals !== 'ask' && approvals !== 'park') {
        throw unavailable(`agentFor(session, { approvals }): approvals must be 'ask' or 'park', got ${JSON.stringify(approvals)}`)
      }
      const inner = build(() => session, name, approvals)
      made.add(inner)
      return {
        run: (input, runOptions) => inner.run(input, runOptions),
        session: inner.session,
        dispose() {
          made.delete(inner)
          inner.dispose()
        },
      }
    },
    async dispose() {
      disposed = true
      for (const each of made) each.dispose()
      made.clear()
      agent?.dispose()
      await opened?.close?.()
    },
  }
}
