/**
 * Every place the kernel relies on cordis beyond its documented API, each with a named test in
 * `test/cordis-internals.test.ts`, so a cordis upgrade that breaks one fails that one test.
 * Listeners: calling through cordis' tracing wrapper costs about 14 µs, so while mounted the
 * kernel notes which original function each wrapper stands for (its own context tree only,
 * undone on dispose) and calls it with the plugin's context as `this`, as the wrapper would.
 */
import type { Context, EffectScope, ForkScope, MainScope } from 'cordis'

const ORIGINAL = Symbol.for('cordis.original')
const SHADOW = Symbol.for('cordis.shadow')
const INTERNAL = Symbol.for('cordis.internal')
const ISOLATE = Symbol.for('cordis.isolate')
const STORE = Symbol.for('cordis.store')

type Bind = (callback: Function) => Function

/** Remembers the original of every listener wrapped in `ctx`'s tree; `restore()` undoes it. */
export function trackListeners(ctx: Context) {
  const proxied = ctx.reflect as unknown as Record<PropertyKey, unknown>
  const reflect = (proxied[ORIGINAL] ?? proxied) as { bind: Bind }
  const originals = new WeakMap<Function, Function>()
  const bind = reflect.bind
  const tracking: Bind = function (this: unknown, callback) {
    const wrapped = bind.call(this, callback)
    if (typeof callback === 'function') originals.set(wrapped, callback)
    return wrapped
  }
  reflect.bind = tracking
  return {
    /** The function `ctx.on` was given, or the wrapper when it is unknown. */
    original: <T>(listener: T): T => (originals.get(listener as Function) as T | undefined) ?? listener,
    restore() {
      if (reflect.bind === tracking) delete (reflect as Partial<{ bind: Bind }>).bind
    },
  }
}

/**
 * The object behind a service as a context hands it out (`ctx.tools`): cordis wraps each
 * function read from a service in a proxy whose `apply` trap copies the arguments on every
 * call. A member read from this object is the function itself; only for members that do not
 * read `this` (arrow functions), so that no caller's context is lost (docs/performance.md).
 * Likewise the function behind a function argument such a proxied method was given (the
 * kernel's `guard`): call it with `untraced(ctx)` as `this`, as its proxy would.
 */
export function serviceTarget<T extends object>(service: T): T {
  // Anything else (a guard that is not a function, say) is handed back as it is, for its caller to refuse.
  if ((typeof service !== 'object' && typeof service !== 'function') || service === null) return service
  return (service as Record<symbol, T | undefined>)[ORIGINAL] ?? service
}

/**
 * The service `name` of `ctx` as the object itself: what `serviceTarget(ctx.get(name))` gives,
 * read from cordis' service table (the lookup `ctx.get` makes, isolation included) without the
 * tracing proxies `ctx.get` builds on the way (15–90 µs per agent made). Undefined when `ctx`
 * has no such service.
 */
export function serviceOf<T extends object>(ctx: Context, name: string): T | undefined {
  const tables = ctx as unknown as {
    [INTERNAL]?: Record<string, { type?: string } | undefined>
    [ISOLATE]?: Record<string, symbol | undefined>
    [STORE]?: Record<symbol, { value?: T | null } | undefined>
  }
  if (tables[INTERNAL]?.[name]?.type !== 'service') return undefined
  const key = tables[ISOLATE]?.[name]
  const value = key === undefined ? undefined : tables[STORE]?.[key]?.value
  return value === undefined || value === null ? undefined : serviceTarget(value)
}

/**
 * A `this` for handlers: cordis traces a "shadow" object straight back to its prototype, so
 * a handler called through a wrapper or directly sees the plugin's context either way.
 */
export function untraced(ctx: Context): object {
  return Object.assign(Object.create(ctx), { [SHADOW]: ctx })
}

/**
 * Takes listeners of the names `wants` accepts into the caller's own store instead of cordis'
 * event table (through cordis' `internal/listener` event). `take` gets the registering context,
 * the name, the original listener and whether it asked to be first; what it returns removes it.
 */
export function interceptListeners(
  ctx: Context,
  wants: (name: unknown) => boolean,
  take: (owner: Context, name: string, listener: Function, prepend: boolean) => () => unknown,
): void {
  const listeners = trackListeners(ctx)
  ctx.effect(() => listeners.restore)
  // cordis passes the listener's options object here (its type says `prepend: boolean`).
  const intercept = function (this: Context, name: string, listener: Function, options: { prepend?: boolean } | undefined) {
    if (!wants(name)) return
    return this.scope.collect(`hook <${name}>`, take(this, name, listeners.original(listener), !!options?.prepend))
  }
  ctx.on('internal/listener', intercept as never, { global: true })
}

/** cordis' `ScopeStatus.FAILED` (a `const enum`, so not importable as a value). */
const FAILED = 3

/** What rein needs to know of one cordis scope (a plugin's runtime, or one of its forks). */
export interface ScopeFacts {
  readonly disposed: boolean
  /** Failed to start: config rejected or `apply` threw (sync or async); `error` says why. */
  readonly failed: boolean
  readonly error: unknown
  /** Started and running. */
  readonly active: boolean
  /** Required injected services that are missing now. */
  readonly missing: readonly string[]
}

/** Reads a scope's state: disposed, failed (and why), active, the services it waits for (when read). */
export function scopeFacts(scope: EffectScope): ScopeFacts {
  return {
    disposed: scope.uid === null, failed: scope.status === FAILED, error: scope.error, active: scope.isActive,
    // Read when asked: each `ctx.get` goes through cordis' proxies, and a loader scans every
    // scope after each plugin it applies, where only a scope that is not active is asked.
    get missing() { return missingServices(scope) },
  }
}

function missingServices(scope: EffectScope): readonly string[] {
  const inject = (scope.runtime as MainScope).inject
  return Object.keys(inject).filter((name) => {
    if (!inject[name]!.required) return false
    const value = scope.ctx.get(name)
    return value === undefined || value === null
  })
}

/** Every plugin runtime of `ctx`'s app (nested plugins included; not the root), with its name and forks. */
export function* pluginRuntimes(ctx: Context): Generator<{ name: string, runtime: MainScope, forks: readonly ForkScope[] }> {
  for (const runtime of registryOf(ctx).values()) {
    if (!runtime.plugin) continue
    const name = runtime.name && runtime.name !== 'apply' ? runtime.name : 'anonymous'
    yield { name, runtime, forks: runtime.children }
  }
}

/**
 * `ctx.registry`, read once per Context: each read builds cordis' tracing proxies, and a loader
 * scans the registry after every plugin it applies. The app's registry is never replaced.
 */
function registryOf(ctx: Context): Context['registry'] {
  let registry = registries.get(ctx)
  if (registry === undefined) registries.set(ctx, registry = ctx.registry)
  return registry
}

const registries = new WeakMap<Context, Context['registry']>()

/** Calls `changed` whenever a scope's status, a fork, a runtime or a service of the app changes. */
export function onLifecycleChange(ctx: Context, changed: () => void): void {
  for (const event of ['internal/status', 'internal/fork', 'internal/runtime', 'internal/service'] as const) {
    ctx.on(event as 'internal/status', changed, { global: true })
  }
}

/** The name of the plugin that owns `ctx`, for errors and `rein chains` (`root` outside any plugin). */
export function pluginName(ctx: Context): string {
  return ctx.runtime?.plugin ? (ctx.name || 'anonymous') : 'root'
}
