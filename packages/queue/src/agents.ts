/**
 * Where a worker's runs get their agents, from either form of `WorkerOptions.harness`:
 *   - a harness loaded once (what `loadHarness` and `createHarness` return), shared by every run
 *     of the worker: each run gets a new agent on its own session (`harness.agentFor`), on the
 *     harness's one Context. The agents running at once are named `agent-1`, `agent-2`, ... (the
 *     lowest number free), so that their events and calls (`exec.agent`) can be told apart;
 *   - a function of the session (`HarnessFactory`): a whole harness per run, disposed after it.
 * The worker owns neither the shared harness (its caller disposes it, after `close()`) nor the
 * sessions (it closes them itself, after the agent).
 */
import type { Context } from 'cordis'
import { memorySession, type Agent, type ApprovalsMode, type SessionStore } from '@rein/agent'
import { QueueCodes, QueueError } from './codes.js'

/** A harness built on one session: what `loadHarness(path, { session })` and `createHarness({ session })` return. */
export interface RunHarness {
  ctx: Context
  readonly agent: Agent
  dispose(): Promise<void>
}

/** Builds the harness for one run on `session` (the worker closes the session; the harness must not). */
export type HarnessFactory = (session: SessionStore) => Promise<RunHarness>

/**
 * A harness loaded once and shared by the runs of a worker: what `loadHarness('rein.yaml')` and
 * `createHarness({ ... })` return. Its plugins, tools and provider serve every session.
 */
export interface SharedHarness {
  readonly ctx: Context
  /** A new agent on `session`, named `name`, parking or asking as `approvals` says (see `@rein/loader`'s `agentFor`). */
  agentFor(session: SessionStore, options?: { name?: string, approvals?: ApprovalsMode }): Agent
}

/** The agent of one run, and what to undo after it. */
export interface RunAgent {
  agent: Agent
  /** The Context its events are sent on. */
  ctx: Context
  /** The agent's name when other agents run on the same Context; undefined when it is alone there. */
  name: string | undefined
  /** Disposes the agent (and a harness made for this run). Never throws. */
  release(): Promise<void>
}

/** Makes the agent of each run. */
export interface AgentSource {
  /** Throws when no agent can be made; its message is put after `failure` in the run's error. */
  open(session: SessionStore): Promise<RunAgent>
  /** `the harness did not load: `, or what else failed, to start the run's error with. */
  readonly failure: string
}

/**
 * The source for `harness` as given to `caller`; throws `OPTIONS_INVALID` when it is neither form.
 * The agents of a shared harness treat asks as `approvals` says; a harness built per run keeps its own setting.
 */
export function agentSourceOf(harness: unknown, caller: string, approvals: ApprovalsMode = 'park'): AgentSource {
  if (typeof harness === 'function') return perRun(harness as HarnessFactory)
  if (typeof (harness as Partial<SharedHarness> | null)?.agentFor === 'function' && (harness as SharedHarness).ctx) {
    return shared(harness as SharedHarness, approvals)
  }
  throw new QueueError(QueueCodes.OPTIONS_INVALID, `${caller}: "harness" must be a harness loaded once, e.g. ` +
    'await loadHarness(\'rein.yaml\'), or a function building one per run, e.g. (session) => loadHarness(path, { session })')
}

/**
 * Checks that a shared harness makes agents (a provider is there, its examples fit its tools),
 * so that a harness that cannot fails the worker's start, not every run. Throws `OPTIONS_INVALID`.
 */
export function checkHarness(harness: unknown, caller: string): void {
  if (typeof harness === 'function') return
  try {
    (harness as SharedHarness).agentFor(memorySession(), { name: 'agent-check' }).dispose()
  } catch (error) {
    throw new QueueError(QueueCodes.OPTIONS_INVALID, `${caller}: the harness cannot make an agent: ${(error as Error)?.message ?? error}`)
  }
}

function perRun(factory: HarnessFactory): AgentSource {
  return {
    failure: 'the harness did not load: ',
    async open(session) {
      const harness = await factory(session)
      let agent: Agent
      try {
        agent = harness.agent // built on first read: a missing provider throws here
      } catch (error) {
        await harness.dispose().catch(() => {})
        throw error
      }
      return { agent, ctx: harness.ctx, name: undefined, release: () => harness.dispose().catch(() => {}) }
    },
  }
}

function shared(harness: SharedHarness, approvals: ApprovalsMode): AgentSource {
  const names = new AgentNames()
  return {
    failure: 'no agent for this run: ',
    async open(session) {
      const name = names.take()
      let agent: Agent
      try {
        agent = harness.agentFor(session, { name, approvals })
      } catch (error) {
        names.give(name)
        throw error
      }
      return {
        agent, ctx: harness.ctx, name,
        async release() {
          try {
            agent.dispose()
          } catch {
            // an agent that fails to dispose leaves nothing of its run behind that matters here
          }
          names.give(name)
        },
      }
    },
  }
}

/** Names for the agents running at once: the lowest `agent-<n>` not in use, given back when its run ends. */
class AgentNames {
  private readonly used = new Set<number>()

  take(): string {
    let n = 1
    while (this.used.has(n)) n++
    this.used.add(n)
    return `agent-${n}`
  }

  give(name: string): void {
    this.used.delete(Number(name.slice('agent-'.length)))
  }
}
