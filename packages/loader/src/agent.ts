/**
 * The harness's agent, built on first use from `@rein/agent`'s `createAgent` with the
 * provider and the `agent` section; its system prompt is `agent.system` followed by the
 * few-shot examples (`system-prompt.ts`). Building it lazily keeps commands that never run a
 * model (`rein check`, `rein chains`) working without a provider; a missing provider or an example its tool rejects is thrown when `.agent` is first read.
 * A session the loader opened from the file's `session` path is closed with the harness.
 */
import type { Context } from 'cordis'
import type { Provider } from '@rein/kernel'
import { createAgent, jsonlSession, type Agent, type SessionStore } from '@rein/agent'
import type { AgentSettings } from './config.js'
import { ConfigError, LoaderCodes } from './errors.js'
import type { PromptSources } from './examples.js'
import { systemPrompt } from './system-prompt.js'

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
}

/** The agent, built once on first `get()`; `dispose()` removes it and closes a session the loader opened. */
export interface LazyAgent {
  get(): Agent
  dispose(): Promise<void>
}

/** Prepares the agent without building it. */
export function lazyAgent(plan: AgentPlan): LazyAgent {
  let agent: Agent | undefined
  let opened: SessionStore | undefined
  return {
    get: () => agent ??= createAgentNow(plan, (store) => { opened = store }),
    async dispose() {
      agent?.dispose()
      await opened?.close?.()
    },
  }
}

function createAgentNow(plan: AgentPlan, onOpen: (store: SessionStore) => void): Agent {
  const { ctx, file, settings, provider, sessionPath } = plan
  const unavailable = (detail: string) => new ConfigError(LoaderCodes.AGENT_UNAVAILABLE, { file }, detail)
  if (!provider) {
    throw unavailable(plan.builder === 'loadHarness'
      ? 'no provider: add a "provider: { use, config }" section, or pass { provider } to loadHarness'
      : 'no provider: pass { provider } to createHarness')
  }
  const system = systemPrompt(ctx, settings.system, plan.prompt)
  let session = plan.session
  if (!session && sessionPath !== undefined) {
    session = jsonlSession(sessionPath)
    onOpen(session)
  }
  return createAgent(ctx, { ...settings, ...(system === undefined ? {} : { system }), provider, ...(session ? { session } : {}) })
}
