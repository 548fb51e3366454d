/**
 * Builds a harness, from a rein.yaml or from code alike: the kernel, then every plugin entry,
 * then every tool entry, each applied and awaited until it runs before the next, so that list
 * order is onion order (first = outermost) even for plugins that inject services or apply
 * asynchronously. Every problem is collected — a module that does not load, a config its
 * schema rejects, a plugin that does not start — and later entries are still applied so that
 * theirs are found too (unless an `apply` missed the start-up deadline, `startup-deadline.ts`);
 * then the Context is stopped and `ConfigErrors` thrown. A harness is
 * only returned when no plugin in it has failed to start: an `optional` entry that fails is
 * removed and reported in `warnings` instead, as are plugins listed against the order their
 * packages declare (`order-check.ts`).
 */
import { Context, type EffectScope, type ForkScope } from 'cordis'
import * as kernel from '@rein/kernel'
import { missingServicesOf, startupProblemOf, startupProblems, type Provider, type StartupProblem } from '@rein/kernel'
import type { Agent, SessionStore } from '@rein/agent'
import { compileOnFirstUse } from './schema-shape.js'
import { compileSimpleFirst } from './simple-schema.js'
import { importAgentModule, lazyAgent, type AgentForOptions, type AgentPlan } from './agent.js'
import type { EntryConfig } from './config.js'
import { ConfigError, ConfigErrors, formatLocation, LoaderCodes, ValueProblem, type LoaderCode, type Location } from './errors.js'
import type { PluginModule } from './modules.js'
import { checkOrder, type PlacedEntry } from './order-check.js'
import { checkPluginConfig } from './plugin-config.js'
import type { ValuePath } from './source.js'
import { APPLY_WAIT, lateStart, MODULE_WAIT, TIMED_OUT, within, type StartupDeadline } from './startup-deadline.js'

/** One plugin or tool entry to apply, however it was written. */
export interface EntryPlan {
  /** `plugins[2] (@rein/plugin-retry)`: how errors and warnings name the entry. */
  label: string
  /** A failure to load or start is a warning, and the harness runs without the entry. */
  optional: boolean
  /** The rein.yaml entry it came from; undefined for an entry given in code. */
  entry: EntryConfig | undefined
  /**
   * The entry's plugin, its module file when it has one, and the config to apply it with
   * (relative paths resolved as the module asks). Throws `ValueProblem`.
   */
  load(): Promise<{ plugin: PluginModule, file: string | undefined, config: unknown }>
  /** Where a problem at `path` inside the entry is. */
  locate(path: ValuePath): Location
}

/** Everything `buildHarness` needs. */
export interface HarnessPlan {
  /** Plugins, then tools, in order. */
  entries: readonly EntryPlan[]
  /** Problems found before building (the shape of the file or of the options). */
  problems: readonly ConfigError[]
  /** The provider, or undefined for none. Throws `ConfigError`. */
  provider(): Promise<Provider | undefined>
  /** How the agents are built on first use; `@rein/agent` is imported only for a harness that can build one (`agent.ts`). */
  agent: Omit<AgentPlan, 'ctx' | 'provider' | 'module'>
  /** How long each entry's module may take to load, and then its `apply` to finish. */
  startup: StartupDeadline
}

/** A plugin or tool entry as applied: the module's plugin and its cordis fork. */
export interface AppliedEntry {
  label: string
  /** The rein.yaml entry; undefined for an entry given in code. */
  entry: EntryConfig | undefined
  plugin: PluginModule
  /** Absolute path of the module file; undefined for a plugin given in code. */
  file: string | undefined
  fork: ForkScope
}

/** A running harness, from a file or from code. */
export interface BuiltHarness {
  /** The cordis Context: `ctx.tools` is the kernel. */
  ctx: Context
  /**
   * The agent loop; built on first read. Throws `ConfigError` (`AGENT_UNAVAILABLE`) when there
   * is no provider or the harness was loaded `inspectOnly`.
   */
  readonly agent: Agent
  /**
   * A new agent on `session`, made when called, with this harness's provider, `agent` settings
   * and system prompt, on this harness's Context: its plugins, tools and their state (a cache,
   * approvals already given) are shared with every other agent of the harness. This is how one
   * loaded harness runs many sessions, as a queue worker does; `.agent` is not affected. The
   * caller owns `session` (closes it) and disposes the agent when done with it; `dispose()` of
   * the harness disposes any left. Give agents that run at once different `name`s. Throws
   * `ConfigError` (`AGENT_UNAVAILABLE`) when there is no provider, when the harness was loaded
   * `inspectOnly`, when `session` is not a SessionStore and after `dispose()`; `ConfigErrors`
   * when an example does not fit its tool.
   */
  agentFor(session: SessionStore, options?: AgentForOptions): Agent
  /** The provider in use, when there is one. */
  provider: Provider | undefined
  /** The plugin and tool entries, in the order they were applied (failed optional ones left out). */
  entries: AppliedEntry[]
  /**
   * One line per optional entry that failed and was left out, in order; then one per pair of
   * plugins listed against the order their packages declare (`rein.order` in package.json).
   */
  warnings: string[]
  /**
   * Removes the agents (`agent` and those of `agentFor`), every plugin, tool and hook (innermost
   * first), stops the Context and closes a session opened from a `session` path. Idempotent.
   */
  dispose(): Promise<void>
}

/** Builds the harness of `plan`. Throws `ConfigErrors` with every problem, after stopping what it started. */
export async function buildHarness(plan: HarnessPlan): Promise<BuiltHarness> {
  // `@rein/agent` loads while the entries load, when the provider says an agent can be built.
  const providing = plan.provider().then(async (value) => ({ value, module: await importAgentModule(value, plan.agent.inspectOnly === true) }))
  const arrived = providing.then(() => {}, () => {})
  const [provider, built] = await Promise.allSettled([providing, applyEntries(plan.entries, plan.agent.inspectOnly === true, plan.startup, arrived)])
  if (built.status === 'rejected') throw built.reason
  const { ctx, applied, placed, problems, warnings } = built.value
  if (provider.status === 'rejected' && !(provider.reason instanceof ConfigError)) {
    await ctx.stop()
    throw provider.reason
  }
  const all = [...plan.problems, ...(provider.status === 'rejected' ? [provider.reason as ConfigError] : []), ...problems]
  if (all.length) {
    await ctx.stop()
    throw new ConfigErrors(all)
  }
  warnings.push(...await checkOrder(placed))
  const resolved = provider.status === 'fulfilled' ? provider.value : { value: undefined, module: undefined }
  const agent = lazyAgent({ ...plan.agent, ctx, provider: resolved.value, module: resolved.module })
  let disposed: Promise<void> | undefined
  return {
    ctx,
    get agent() { return agent.get() },
    agentFor: (session, options) => agent.forSession(session, options),
    provider: resolved.value,
    entries: applied,
    warnings,
    dispose: () => disposed ??= (async () => {
      await agent.dispose()
      for (const { fork } of [...applied].reverse()) fork.dispose()
      await ctx.stop()
    })(),
  }
}

/** An entry after loading: ready to apply, or failed (its own failure), or invalid (a mistake in the list). */
type Prepared =
  | { kind: 'ready', plan: EntryPlan, plugin: PluginModule, file: string | undefined, config: unknown }
  | { kind: 'failed', plan: EntryPlan, error: ConfigError }
  | { kind: 'invalid', plan: EntryPlan, error: ConfigError }

/**
 * Loads every entry in parallel, then, once `arrived` (the provider and `@rein/agent`) has
 * settled, applies them one by one on a new Context. Applying is a long run of promise
 * reactions that keeps the event loop from the import's file reads, so a harness applied first
 * waited for `@rein/agent` after its last entry (docs/performance.md, the cold start). An `apply`
 * that misses the deadline ends the applying: it may still be running, and cordis would wait for
 * it before starting anything else, so the entries after it are not applied.
 */
async function applyEntries(plans: readonly EntryPlan[], inspectOnly: boolean, deadline: StartupDeadline, arrived: Promise<void>) {
  const prepared = rejectDuplicates(await Promise.all(plans.map((plan) => prepare(plan, deadline))))
  await arrived
  const applied: AppliedEntry[] = []
  const placed: PlacedEntry[] = []
  const problems: ConfigError[] = []
  const warnings: string[] = []
  /**
   * An entry's own failure is a warning when the entry is optional; a mistake in the list never
   * is. The warning says in so many words that the entry is not active, as a policy left out
   * this way no longer applies to any call.
   */
  const report = (plan: EntryPlan, error: ConfigError, skippable: boolean) => {
    if (skippable && plan.optional) warnings.push(`${error.message}; ${notActive(plan)}`)
    else problems.push(error)
  }
  const ctx = new Context()
  try {
    // A harness only inspected (`rein chains`, `rein check`) runs no call: its schemas are
    // checked at register but left for ajv to compile on first use, so ajv is never loaded.
    // One that runs loads ajv only for a schema outside the simple subset, or to word a rejection.
    ctx.plugin(kernel, { compileSchema: inspectOnly ? compileOnFirstUse : compileSimpleFirst })
    await ctx.start()
    const reported = new Set<EffectScope>()
    let late = false
    for (const item of prepared) {
      if (late) break
      switch (item.kind) {
        case 'invalid':
          report(item.plan, item.error, false)
          break
        case 'failed':
          report(item.plan, item.error, true)
          break
        case 'ready': {
          const outcome = await applyOne(ctx, item, reported, deadline)
          if (outcome.kind === 'applied') {
            applied.push(outcome.applied)
            const { plan, plugin, file } = item
            placed.push({ where: formatLocation(plan.locate([])), label: plan.label, use: plan.entry?.use, plugin, file })
          } else {
            report(item.plan, outcome.error, outcome.skippable)
            late = outcome.late === true
          }
          break
        }
        default:
          throw new Error(`unhandled entry state ${JSON.stringify(item satisfies never)}`)
      }
    }
    return { ctx, applied, placed, problems, warnings }
  } catch (error) {
    await ctx.stop()
    throw error
  }
}

/**
 * Applies one entry and waits until it runs. If it — or any other plugin, as it was applied —
 * did not start, its fork is disposed again and the reasons returned; it may be skipped (when
 * optional) only if disposing it leaves no plugin failed. `reported` keeps failures that
 * outlive the fork from being blamed on later entries.
 */
async function applyOne(ctx: Context, item: Extract<Prepared, { kind: 'ready' }>, reported: Set<EffectScope>, deadline: StartupDeadline):
  Promise<{ kind: 'applied', applied: AppliedEntry } | { kind: 'failed', error: ConfigError, skippable: boolean, late?: true }> {
  const newProblems = () => startupProblems(ctx).filter((problem) => !reported.has(problem.scope))
  const fork = ctx.plugin(item.plugin as any, item.config) as ForkScope
  if (await within(ctx.start(), deadline.ms) === TIMED_OUT) {
    // Never skipped, even when optional: the apply may still finish and register its hooks.
    fork.dispose()
    return { kind: 'failed', error: entryError(item.plan, LoaderCodes.PLUGIN_START_TIMEOUT, lateStart(APPLY_WAIT, deadline)), skippable: false, late: true }
  }
  const own = startupProblemOf(fork)
  const others = newProblems().filter((problem) => problem.scope !== fork && problem.scope !== fork.runtime)
  if (own === undefined && others.length === 0) {
    return { kind: 'applied', applied: { label: item.plan.label, entry: item.plan.entry, plugin: item.plugin, file: item.file, fork } }
  }
  fork.dispose()
  const left = newProblems()
  for (const problem of left) reported.add(problem.scope)
  return { kind: 'failed', error: entryError(item.plan, LoaderCodes.PLUGIN_APPLY_FAILED, startFailure(own, missingServicesOf(fork).length > 0, others)), skippable: left.length === 0 }
}

/** Imports the entry's module (within the deadline) and checks its config against the plugin's schema. */
async function prepare(plan: EntryPlan, deadline: StartupDeadline): Promise<Prepared> {
  try {
    const loaded = await within(plan.load(), deadline.ms)
    if (loaded === TIMED_OUT) {
      return { kind: 'failed', plan, error: entryError(plan, LoaderCodes.PLUGIN_START_TIMEOUT, lateStart(MODULE_WAIT, deadline)) }
    }
    const { plugin, file, config } = loaded
    checkPluginConfig(plugin, config)
    return { kind: 'ready', plan, plugin, file, config }
  } catch (error) {
    if (error instanceof ValueProblem) return { kind: 'failed', plan, error: entryError(plan, error.code, error.detail, error.path, error) }
    throw error
  }
}

/**
 * A module applies once per Context: cordis keeps one runtime per plugin object, so a second
 * entry would silently be ignored for a package (and applied twice for a local file, which
 * imports fresh). Both are refused unless the plugin declares itself `reusable`; so is the kernel.
 */
function rejectDuplicates(prepared: Prepared[]): Prepared[] {
  const firsts = new Map<unknown, EntryPlan>()
  return prepared.map((item) => {
    if (item.kind !== 'ready') return item
    const { plan, plugin, file } = item
    if (plugin === kernel || (plugin as { name?: unknown }).name === kernel.name) {
      return { kind: 'invalid', plan, error: entryError(plan, LoaderCodes.CONFIG_INVALID, 'this is the kernel, which every harness loads first by itself; remove this entry') }
    }
    const key = file ?? plugin
    const first = firsts.get(key)
    if (!first) firsts.set(key, plan)
    if (!first || (plugin as { reusable?: unknown }).reusable) return item
    return { kind: 'invalid', plan, error: entryError(plan, LoaderCodes.CONFIG_INVALID,
      `the same module is already listed as ${first.label}; a plugin applies once per harness, so merge the two entries`) }
  })
}

/** `this plugin is NOT active; the entry is optional, so the harness runs without it` (`tool source` for tools). */
function notActive(plan: EntryPlan): string {
  const what = (plan.entry?.section ?? plan.label.replace(/\[.*$/, '')) === 'tools' ? 'tool source' : 'plugin'
  return `this ${what} is NOT active; the entry is optional, so the harness runs without it`
}

/** Why an entry did not start: its own reason, then any other plugin that failed as it was applied. */
function startFailure(own: string | undefined, waitsForService: boolean, others: readonly StartupProblem[]): string {
  const hint = waitsForService ? '; list the plugin that provides it before this one' : ''
  return [
    ...(own === undefined ? [] : [`the plugin failed to start: ${own}${hint}`]),
    ...others.map(({ plugin, reason }) => `applying it made plugin "${plugin}" fail to start: ${reason}`),
  ].join('; ')
}

function entryError(plan: EntryPlan, code: LoaderCode, detail: string, path: ValuePath = [], cause?: unknown): ConfigError {
  return new ConfigError(code, plan.locate(path), detail, { cause })
}
