/**
 * The configuration of the timeout policy, validated by cordis when the plugin is loaded:
 * every duration is a whole number of milliseconds, so a bad value fails `ctx.plugin(...)`
 * with a message naming the key (`$.graceMs expected number >= 0 but got -1`). Every call
 * has a finite deadline unless a config value says otherwise: `defaultMs` has a default.
 */
import { Schema } from 'cordis'
import { MAX_TIMER_MS } from '@rein/kernel'

/**
 * The deadline of a tool that names none: 30 s. Long enough for the real tools a harness
 * runs (a shell command, an HTTP request, an MCP server), short enough that a hung one costs
 * a turn half a minute rather than forever.
 */
export const DEFAULT_TIMEOUT_MS = 30_000

export interface Config {
  /** Deadline for tools with neither an override in `tools` nor their own `timeoutMs`. */
  defaultMs: number
  /** How long to keep waiting for a tool after its signal aborted, before giving up on it. */
  graceMs: number
  /** Per-tool deadlines by tool name; they win over the definition's `timeoutMs`. */
  tools: Record<string, number>
  /** Whether `exec.progress()` restarts the deadline (a heartbeat). */
  resetOnProgress: boolean
}

/** What a user may write: every key is optional, the schema fills in the defaults. */
export type ConfigInput = Partial<Config>

/** The schema cordis validates the plugin config with at load; fills in the defaults. */
export const Config: Schema<ConfigInput | undefined, Config> = Schema.object({
  defaultMs: Schema.natural().min(1).default(DEFAULT_TIMEOUT_MS)
    .description('Deadline (ms) for tools without an override or their own timeoutMs.'),
  graceMs: Schema.natural().max(MAX_TIMER_MS).default(1000)
    .description('How long (ms) to wait for a tool after its signal aborted before giving up on it.'),
  tools: Schema.dict(Schema.natural().min(1)).default({})
    .description('Deadline (ms) per tool name; wins over the tool definition\'s timeoutMs.'),
  resetOnProgress: Schema.boolean().default(false)
    .description('Restart the deadline whenever the tool calls exec.progress().'),
})
