/**
 * Tool-call ids, unique within one assistant message. A provider refuses a conversation in
 * which two calls of one message share an id (their results could not be told apart), so a
 * repeated id is renamed before the message is logged, and the scheduler answers each renamed
 * call `INVALID_PLAN` without running it (`planBatch`, given the ids the model gave).
 */
import type { ToolCall } from '@rein/kernel'

/**
 * Renames, in place, every call of `calls` whose id an earlier call already has: `<id>_2`,
 * `<id>_3`... (the first such id no call of the message has). Returns the id the model gave
 * each renamed call, by index, or undefined when every id was unique (the usual case).
 */
export function renameRepeatedIds(calls: ToolCall[]): Map<number, string> | undefined {
  if (calls.length < 2) return undefined
  const ids = new Set<string>()
  let repeats: number[] | undefined
  for (let i = 0; i < calls.length; i++) {
    const id = calls[i]!.id
    if (ids.has(id)) (repeats ??= []).push(i)
    else ids.add(id)
  }
  if (repeats === undefined) return undefined
  const given = new Map<number, string>()
  const suffixes = new Map<string, number>() // the next suffix to try, per id: renaming stays linear
  for (const i of repeats) {
    const call = calls[i]!
    let n = suffixes.get(call.id) ?? 2
    while (ids.has(`${call.id}_${n}`)) n++
    const renamed = `${call.id}_${n}`
    suffixes.set(call.id, n + 1)
    ids.add(renamed)
    given.set(i, call.id)
    calls[i] = { ...call, id: renamed }
  }
  return given
}
