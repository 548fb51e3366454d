/**
 * Fail closed on a plugin that did not start (DESIGN.md §6.1): while any plugin of the app has
 * failed (config rejected, `apply` threw, a required service missing), every call settles
 * `PIPELINE_FAILED`. The registry is scanned only after a lifecycle event, so a call pays one
 * boolean check.
 */
import type { Context, EffectScope } from 'cordis'
import { onLifecycleChange, pluginRuntimes, scopeFacts } from '@rein/cordis-internals'
import { messageOf } from './hostile.js'

/** One plugin that did not start, and why (for the result text and for loaders). */
export interface StartupProblem {
  /** The plugin's name (its `name` export), or `anonymous`. */
  readonly plugin: string
  /** Why, in one line: the error's message, or which services are missing. */
  readonly reason: string
  /** The scope that failed (a fork, or the plugin's runtime when its `apply` threw). */
  readonly scope: EffectScope
}

/**
 * Why `scope` (usually the fork `ctx.plugin()` returned) has not started, or undefined when
 * it is running, still loading, or disposed. Loaders use it to report an entry's failure.
 */
export function startupProblemOf(scope: EffectScope): string | undefined {
  const own = scopeFacts(scope)
  if (own.disposed) return undefined
  const runtime = scopeFacts(scope.runtime)
  if (runtime.failed) return reasonOf(runtime.error)
  if (own.failed) return reasonOf(own.error)
  if (!own.active && own.missing.length) {
    const { missing } = own
    return `it needs the service${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')}, which no plugin provides`
  }
  return undefined
}

/** The required services `scope` waits for and no plugin provides yet (empty when none). */
export function missingServicesOf(scope: EffectScope): readonly string[] {
  return scopeFacts(scope).missing
}

/** Every plugin of `ctx`'s app that has not started, in registration order. */
export function startupProblems(ctx: Context): StartupProblem[] {
  const problems: StartupProblem[] = []
  for (const { name, runtime, forks } of pluginRuntimes(ctx)) {
    const facts = scopeFacts(runtime)
    if (facts.failed) {
      problems.push({ plugin: name, reason: reasonOf(facts.error), scope: runtime })
      continue
    }
    for (const fork of forks) {
      const reason = startupProblemOf(fork)
      if (reason !== undefined) problems.push({ plugin: name, reason, scope: fork })
    }
  }
  return problems
}

/** The `PIPELINE_FAILED` text for a closed harness: one line per plugin that did not start. */
export function closedMessage(problems: readonly StartupProblem[]): string {
  return problems
    .map(({ plugin, reason }) => `plugin "${plugin}" failed to start: ${reason}; no tool runs until it is fixed or removed`)
    .join('\n')
}

/** The app's current startup problems, rescanned only after a cordis lifecycle event. */
export function watchStartup(ctx: Context): () => readonly StartupProblem[] {
  let stale = true
  let problems: readonly StartupProblem[] = NONE
  onLifecycleChange(ctx, () => { stale = true })
  return () => {
    if (stale) {
      stale = false
      const found = startupProblems(ctx)
      problems = found.length ? found : NONE
    }
    return problems
  }
}

const NONE: readonly StartupProblem[] = Object.freeze([])

/** A one-line reason from anything a failed start left behind; never throws. */
function reasonOf(error: unknown): string {
  if (error === undefined || error === null) return 'its config was rejected'
  return messageOf(error).split('\n', 1)[0]!.trim() || 'no reason given'
}
