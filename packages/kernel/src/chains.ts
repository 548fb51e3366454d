/**
 * Where hook handlers live. One ordered array per hook (first = outermost); registration
 * order is onion order and `prepend` puts a handler first. A change invalidates the composed
 * function of that hook only, so a call pays for composition once per change, not per call.
 */
import type { ChainEntry } from './compose.js'
import { HOOKS, type HandOffHandler, type HookName, type OnionHooks, type ResultObserver } from './hooks.js'

/** Each hook's handler type, by name. */
interface Handlers extends OnionHooks {
  'tools/result': ResultObserver
  'tools/hand-off': HandOffHandler
}
type HandlerOf<K extends HookName> = Handlers[K]

/** The handlers of every hook, and a cache of whatever is derived from each list. */
export class Chains {
  private readonly lists = Object.fromEntries(Object.keys(HOOKS).map((name) => [name, []])) as unknown as
    { [K in HookName]: ChainEntry<HandlerOf<K>>[] }
  private readonly derived = new Map<HookName, unknown>()

  /** Whether the kernel intercepts `name`. */
  static has(name: unknown): name is HookName {
    return typeof name === 'string' && Object.hasOwn(HOOKS, name)
  }

  /** Adds a handler; returns the function that removes exactly it. */
  add<K extends HookName>(name: K, entry: ChainEntry<HandlerOf<K>>, prepend: boolean): () => boolean {
    const list = this.lists[name] as ChainEntry<HandlerOf<K>>[]
    if (prepend) list.unshift(entry)
    else list.push(entry)
    this.derived.delete(name)
    return () => {
      const index = list.indexOf(entry)
      if (index < 0) return false
      list.splice(index, 1)
      this.derived.delete(name)
      return true
    }
  }

  /** The handlers of one hook, outermost first (a copy). */
  list<K extends HookName>(name: K): readonly ChainEntry<HandlerOf<K>>[] {
    return this.lists[name].slice() as ChainEntry<HandlerOf<K>>[]
  }

  /** Something derived from one hook's list (e.g. its composed function), rebuilt after a change. */
  derive<K extends HookName, T>(name: K, build: (entries: readonly ChainEntry<HandlerOf<K>>[]) => T): T {
    let value = this.derived.get(name) as T | undefined
    if (value === undefined) {
      value = build(this.list(name))
      this.derived.set(name, value)
    }
    return value
  }
}
