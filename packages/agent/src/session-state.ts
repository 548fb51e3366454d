/**
 * Per-session plugin state (`exec.session.state`, DESIGN.md §7.1), kept in the session log as
 * `state` entries. Guarantees: a value set is visible at once to every later `get` of this
 * process; its entry is appended at once, before the `tool/result` of the call it was set
 * during (the commit cursor appends that later, and a store keeps append order), so it is
 * durable before that call commits; a value that fails to append fails every later append of
 * the log, so no call commits without the state it set. On open, the latest entry of each key
 * wins. Nothing here is shared between sessions: each agent's log has its own.
 */
import { deepFreeze, snapshot, type Json, type SessionState } from '@rein/kernel'
import type { NewSessionEntry, SessionEntry } from './session.js'

/** The latest value of every key of every plugin in `entries`: `plugin -> key -> value`. */
export function stateOf(entries: readonly SessionEntry[]): Map<string, Map<string, Json>> {
  const values = new Map<string, Map<string, Json>>()
  for (const entry of entries) if (entry.type === 'state') put(values, entry.plugin, entry.key, entry.value)
  return values
}

/**
 * The state of one session (`SessionState`: what a call sees as `exec.session.state`) over an
 * `append` that writes one entry durably. `set` checks the names and that the value is JSON
 * (else throws, writing nothing), keeps a frozen copy visible at once to `get`, and appends its
 * `state` entry at once; a failed append is the appender's to report (it is not awaited here).
 * `load` replaces every value with the latest of each key in a store's entries. The agent keeps
 * one per session log; `rein mcp serve` one per MCP session.
 */
export class PluginState implements SessionState {
  private values = new Map<string, Map<string, Json>>()

  /** `append` writes one entry durably (the log's own, which refuses everything after a failure). */
  constructor(private readonly append: (entry: NewSessionEntry) => Promise<unknown>) {}

  /** Takes the latest values from the entries a store loaded. */
  load(entries: readonly SessionEntry[]): void {
    this.values = stateOf(entries)
  }

  get(plugin: string, key: string): Json | undefined {
    return this.values.get(plugin)?.get(key)
  }

  set(plugin: string, key: string, value: Json): void {
    if (typeof plugin !== 'string' || plugin === '') throw new TypeError('session state: the plugin name must be a non-empty string')
    if (typeof key !== 'string') throw new TypeError(`session state of plugin "${plugin}": the key must be a string`)
    const snap = snapshot(value)
    if (!snap.ok) throw new TypeError(`session state of plugin "${plugin}", key "${key}": the value is not JSON (${snap.problem})`)
    const frozen = deepFreeze(snap.value)
    put(this.values, plugin, key, frozen)
    // A failure is the log's to report: it refuses every later append, the call's result included.
    this.append({ type: 'state', plugin, key, value: frozen }).catch(() => {})
  }
}

function put(values: Map<string, Map<string, Json>>, plugin: string, key: string, value: Json): void {
  let keys = values.get(plugin)
  if (!keys) values.set(plugin, keys = new Map())
  keys.set(key, value)
}
