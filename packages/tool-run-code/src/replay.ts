/**
 * What a `run_code` call keeps in its session when one of its sub-calls parks for approval
 * (DESIGN.md §7.2), so that its continuation is the same run: the sandbox's fixed clock, and the
 * reply of every sub-call that settled, by its order `n` in the run (`<call id>.<n>`), with its
 * tool and canonical arguments. It lives in the session's plugin state (`exec.session.state`),
 * written once, when the call parks; the continuation answers those sub-calls from it instead of
 * running them. The random numbers need nothing kept: their seed is the call's idempotency key.
 */
import { createHash } from 'node:crypto'
import { CodedError, type Json, type SessionState, type ToolExec } from '@rein/kernel'
import { RUN_CODE_DIVERGED } from './codes.js'

/** The state namespace of `run_code`'s records. */
export const REPLAY_PLUGIN = 'run_code'

/** One sub-call that settled: its order, tool, canonical arguments (JSON text) and reply envelope (JSON text). */
export interface ReplayedCall {
  n: number
  tool: string
  args: string
  reply: string
}

/** A parked run, as its continuation replays it. */
export interface ReplayRecord {
  /** The sandbox's `Date.now()` (ms since the epoch) in every run of this call. */
  clock: number
  calls: ReplayedCall[]
}

/** The state key of `exec`'s record: its turn and id (a call id is unique in its turn). */
export function replayKey(exec: ToolExec): string {
  return `replay:${exec.turn ?? '-'}:${exec.id}`
}

/** The record kept for `exec`, if any. A value of another shape (a damaged or forged entry) is a coded error. */
export function readReplay(state: SessionState | undefined, exec: ToolExec): ReplayRecord | undefined {
  const value = state?.get(REPLAY_PLUGIN, replayKey(exec))
  if (value === undefined || value === null) return undefined
  if (isRecord(value)) return { clock: value.clock, calls: value.calls.map((call) => ({ ...call })) }
  throw new CodedError(`the session's record of this run_code call (state "${REPLAY_PLUGIN}", key "${replayKey(exec)}") is damaged, ` +
    'so the code cannot be run again without running its earlier tool calls twice; nothing ran', RUN_CODE_DIVERGED)
}

/** Keeps `record` for `exec` in its session (appended at once, before the call's request). */
export function keepReplay(state: SessionState, exec: ToolExec, record: ReplayRecord): void {
  const calls = [...record.calls].sort((a, b) => a.n - b.n)
  state.set(REPLAY_PLUGIN, replayKey(exec), { clock: record.clock, calls: calls as unknown as Json })
}

/** Arguments as canonical JSON text (object keys sorted), so equal arguments compare equal. */
export function canonicalArgs(text: string): string {
  return JSON.stringify(JSON.parse(text), (_key, value: unknown) => isPlainObject(value)
    ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]]))
    : value)
}

/** Four 32-bit words of a hash of `key`: the seed of the sandbox's `Math.random`. */
export function seedOf(key: string): number[] {
  const digest = createHash('sha256').update(key).digest()
  return [0, 4, 8, 12].map((at) => digest.readUInt32LE(at))
}

function isRecord(value: Json): value is { clock: number, calls: ReplayedCall[] } & { [key: string]: Json } {
  if (!isPlainObject(value) || typeof value.clock !== 'number' || !Number.isFinite(value.clock) || !Array.isArray(value.calls)) return false
  return value.calls.every((call) => isPlainObject(call) && Number.isInteger(call.n) && (call.n as number) >= 1
    && typeof call.tool === 'string' && typeof call.args === 'string' && typeof call.reply === 'string')
}

function isPlainObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
