/**
 * Fail closed on a plugin that did not start (DESIGN.md §6.1). A harness never runs tools
 * with less policy than it was given: while any plugin of the kernel's cordis app has failed
 * (its config was rejected, its `apply` threw, or a service it requires is missing), every
 * call settles `PIPELINE_FAILED` and no body runs. Disposing the plugin, or a successful
 * restart, lifts it. The scan walks cordis' registry only after a lifecycle event changed
 * something, so a call pays one boolean check.
 */
import type { Context, EffectScope, MainScope } from 'cordis'
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

/** cordis' `ScopeStatus.FAILED` (a `const enum`, so not importable as a value). */
const FAILED = 3

/**
 * Why `scope` (usually the fork `ctx.plugin()` returned) has not started, or undefined when
 * it is running, still loading, or disposed. Loaders use it to report an entry's failure.
 */
export function startupProblemOf(scope: EffectScope): string | undefined {
  if (scope.uid === null) return undefined
  const runtime = scope.runtime as MainScope
  if (runtime.status === FAILED) return reasonOf(runtime.error)
  if (scope.status === FAILED) return reasonOf(scope.error)
  if (!scope.isActive && runtime.plugin) {
    const missing = missingServices(scope)
    if (missing.length) {
      return `it needs the service${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')}, which no plugin provides`
    }
  }
  return undefined
}

/** Every plugin of `ctx`'s app that has not started, in registration order. */
export function startupProblems(ctx: Context): StartupProblem[] {
  const problems: StartupProblem[] = []
  for (const runtime of ctx.registry.values()) {
    if (!runtime.plugin) continue
    const name = runtime.name && runtime.name !== 'apply' ? runtime.name : 'anonymous'
    if (runtime.status === FAILED) {
      problems.push({ plugin: name, reason: reasonOf(runtime.error), scope: runtime })
      continue
    }
    for (const fork of runtime.children) {
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

/**
 * Keeps the app's startup problems current for the kernel: marks them stale on every cordis
 * lifecycle event (a scope's status, a fork or runtime coming or going, a service changing)
 * and rescans lazily. Returns the current problems (an empty, shared array when none).
 */
export function watchStartup(ctx: Context): () => readonly StartupProblem[] {
  let stale = true
  let problems: readonly StartupProblem[] = NONE
  const mark = () => { stale = true }
  for (const event of ['internal/status', 'internal/fork', 'internal/runtime', 'internal/service'] as const) {
    ctx.on(event as 'internal/status', mark, { global: true })
  }
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

function missingServices(scope: EffectScope): string[] {
  const inject = (scope.runtime as MainScope).inject
  return Object.keys(inject).filter((name) => {
    if (!inject[name]!.required) return false
    const value = scope.ctx.get(name)
    return value === undefined || value === null
  })
}

/** A one-line reason from anything a failed start left behind; never throws. */
function reasonOf(error: unknown): string {
  if (error === undefined || error === null) return 'its config was rejected'
  return firstLine(messageOf(error))
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim()
  return line || 'no reason given'
}
