/**
 * Fast access to hook handlers registered with plain `ctx.on(...)`. cordis wraps every
 * listener in a tracing proxy before `internal/listener` sees it, and calling through that
 * proxy costs ~14 µs (fresh proxies per argument) — more than the whole pipeline budget.
 * While the kernel is mounted it notes, for its own context tree only, which original
 * function each wrapper stands for; the chains then call the original directly, with the
 * registering plugin's context as `this`, exactly what the wrapper would have passed.
 * Restored on dispose. If cordis ever stops calling `reflect.bind`, the wrapper is used as is.
 */
import type { Context } from 'cordis'

const ORIGINAL = Symbol.for('cordis.original')
const SHADOW = Symbol.for('cordis.shadow')

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
 * A `this` for handlers: cordis traces a "shadow" object straight back to its prototype, so
 * a handler called through a wrapper or directly sees the plugin's context either way.
 */
export function untraced(ctx: Context): object {
  return Object.assign(Object.create(ctx), { [SHADOW]: ctx })
}
