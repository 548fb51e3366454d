/**
 * What refuses a call before anything runs, however it is called (`execute` or `settle`):
 * options that throw when read, a `signal` that is not an AbortSignal, an `id` that is not a
 * string. Each answer is the call's exec, or the problem to settle it `PIPELINE_FAILED` with.
 */
import { CALL, makeExec, type Exec } from './exec.js'
import { messageOf, readSafely } from './hostile.js'
import type { ExecuteOptions, ToolCall } from '@rein/types'

/** The options of a call refused for its options: none at all. */
export const NO_OPTIONS: ExecuteOptions = Object.freeze({})

/**
 * The exec of `call`, or why it cannot run. Runs once per call on the hot path: a property
 * read, an `instanceof` and a `typeof` when all is well, nothing allocated beyond the exec.
 */
export function checkedExec(call: ToolCall, args: Readonly<Record<string, unknown>>, options: ExecuteOptions, method: 'execute' | 'settle' | 'adopt'): Exec | string {
  let exec: Exec
  try {
    exec = makeExec(call, args, options)
  } catch (error) {
    return `the options of ${method}(call, options) could not be read (${messageOf(error)})`
  }
  const signal = exec[CALL].signal
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    return `options.signal of ${method}(call, options) must be an AbortSignal, not ${kindOf(signal)}`
  }
  // Results, logs and references name calls by their id.
  if (typeof exec.id !== 'string') return `the call's id must be a string, not ${kindOf(exec.id)}`
  return exec
}

/** What `value` is, in a few words, without trusting it: `null`, `a string`, `an AbortController`. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value !== 'object' && typeof value !== 'function') return `a ${typeof value}`
  const name = readSafely(readSafely(value, 'constructor'), 'name')
  if (typeof name !== 'string' || name === '') return 'an object'
  if (name === 'Object') return 'a plain object'
  return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`
}
