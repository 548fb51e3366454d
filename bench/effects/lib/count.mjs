// What one row's files say once its run is finished: the calls the model asked, the effects
// in the ledger, the duplicates, the unknowns rein reported, and the losses.
import { existsSync, readFileSync } from 'node:fs'
import { TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN } from '@rein/kernel'
import { readSession } from '@rein/agent'
import { readLedger } from './workload.mjs'

/**
 * The figures of one row. `asked`: distinct items the model asked (the logical calls); `asks`:
 * every time it asked one. `duplicates`: ledger lines beyond the first for an item. `unknown`:
 * items whose result rein reported TOOL_OUTCOME_UNKNOWN, split by whether the effect is in the
 * ledger. `losses`: items asked whose effect is missing and that nobody reported unknown.
 */
export async function countRow(files) {
  const askLines = readFileSync(files.asks, 'utf8').split('\n').filter(Boolean).map(Number)
  const asked = new Set(askLines)
  const effects = new Map()
  const ledger = readLedger(files)
  for (const line of ledger) effects.set(line.item, (effects.get(line.item) ?? 0) + 1)
  let duplicates = 0
  for (const n of effects.values()) duplicates += n - 1
  const session = existsSync(files.session) ? await sessionFacts(files.session) : undefined
  const unknownItems = session?.unknown ?? new Set()
  let losses = 0
  for (const item of asked) if (!effects.has(item) && !unknownItems.has(item)) losses++
  const unknownDone = [...unknownItems].filter((item) => effects.has(item)).length
  return {
    asked: asked.size,
    asks: askLines.length,
    effects: ledger.length,
    distinctEffects: effects.size,
    duplicates,
    unknown: session ? { total: unknownItems.size, done: unknownDone, notDone: unknownItems.size - unknownDone } : undefined,
    notStarted: session?.notStarted,
    reconciled: session?.reconciled,
    rerun: reconcileReruns(files),
    losses,
  }
}

/** rein's own report, from its session: unknown outcomes, calls that never started, reconciled calls. */
async function sessionFacts(file) {
  const { entries } = await readSession(file)
  const itemOf = new Map()
  for (const entry of entries) {
    for (const call of entry.type === 'message' ? entry.message.toolCalls ?? [] : []) itemOf.set(call.id, JSON.parse(call.arguments).item)
  }
  const unknown = new Set()
  let notStarted = 0
  let reconciled = 0
  for (const entry of entries) {
    if (entry.type !== 'tool/result') continue
    if (entry.code === TOOL_OUTCOME_UNKNOWN) unknown.add(itemOf.get(entry.message.toolCallId))
    if (entry.code === TOOL_NOT_STARTED) notStarted++
    if (entry.meta?.reconciled === true) reconciled++
  }
  return { unknown, notStarted, reconciled }
}

/** How many calls `reconcile` answered `{ ran: false }` (they ran again, once). */
function reconcileReruns(files) {
  if (!existsSync(files.reconciles)) return 0
  return readFileSync(files.reconciles, 'utf8').split('\n').filter(Boolean).filter((line) => !JSON.parse(line).ran).length
}
