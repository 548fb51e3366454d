/**
 * The start-up deadline of one entry: how long its module may take to finish loading, and then
 * how long its `apply` may take to finish, before the harness fails closed with a message that
 * names the entry, what it waited for and how to allow longer. Without it a module whose
 * top-level await never settles, or an `apply` that never resolves, leaves nothing keeping the
 * process alive and Node exits 13 with no word. The timer is the one thing keeping the process
 * alive meanwhile, and is cleared as soon as the wait ends.
 */
import { MAX_TIMER_MS } from '@rein/kernel'
import type { Report } from './config.js'
import { LoaderCodes } from './errors.js'
import type { ValuePath } from './source.js'

/** How long each entry's module may take to load, and then its `apply` to finish, by default. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000

/** The deadline of a harness's entries, and where it is set (for the message). */
export interface StartupDeadline {
  ms: number
  /** How the reader raises it: `startupTimeoutMs at the top level of rein.yaml`. */
  setting: string
}

/** What `within` resolves with when the deadline came first. */
export const TIMED_OUT: unique symbol = Symbol('rein.startup-timed-out')

/** `work`'s value, or `TIMED_OUT` once `ms` have passed without it settling. */
export function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(() => resolve(TIMED_OUT), ms) })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}

/** What an entry was waited for, and what may hold it up. */
export interface StartupWait {
  what: string
  likely: string
}

/** Loading the entry's module. */
export const MODULE_WAIT: StartupWait = { what: 'its module did not finish loading', likely: 'a top-level await that never settles?' }

/** The entry's `apply`, once its module loaded. */
export const APPLY_WAIT: StartupWait = { what: 'its apply() did not finish', likely: 'an await in apply, or a service it waits for, that never settles?' }

/** The problem of an entry whose start did not finish in time. */
export function lateStart(wait: StartupWait, deadline: StartupDeadline): string {
  return `${wait.what} within ${deadline.ms} ms (${wait.likely}), so the harness does not start and no tool runs; ` +
    `fix the plugin, or if it needs longer to start, raise ${deadline.setting} (now ${deadline.ms})`
}

/** Reads a `startupTimeoutMs` value (from the file or from code), reporting a bad one; undefined for the default. */
export function readStartupTimeout(value: unknown, path: ValuePath, report: Report): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMER_MS) return value
  report(LoaderCodes.CONFIG_INVALID, path,
    `startupTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS} (got ${JSON.stringify(value)}); ` +
    `the default is ${DEFAULT_STARTUP_TIMEOUT_MS}`)
  return undefined
}
