// The workload every subject runs, and the files one row of the benchmark shares between its
// lives (the processes that are killed and the one that finishes).
//
// The scripted model asks for item 1, then, once a tool result is in its conversation, the
// next item, one call per step, until CALLS items have results; then it answers 'done'. It
// decides from the conversation alone, as a real model would, so a resumed or restarted run is
// asked the same way. A result that says the call did not run (rein's TOOL_NOT_STARTED) is
// asked again; any other result, an unknown outcome included, is taken as settled (retrying a
// call that may have run is how effects get doubled). Every ask is appended to `asks.log` (the parent counts the calls asked); every
// effect is one line appended to `ledger.jsonl` and synced, before the tool answers.
import { appendFileSync, closeSync, fdatasyncSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** Tool calls per run: the model asks items 1..CALLS. */
export const CALLS = Number(process.env.EFFECTS_CALLS ?? 100)
/** The body's time on either side of its effect: the request and the reply on the wire. */
const WIRE_MS = 2

/** The files of one row, in its folder. */
export function filesOf(dir) {
  return { ledger: join(dir, 'ledger.jsonl'), asks: join(dir, 'asks.log'), reconciles: join(dir, 'reconcile.log'), session: join(dir, 'session.jsonl') }
}

/**
 * The call the model asks next, given the texts of the tool results in its conversation (in
 * order), or undefined when every item is settled. Call ids number the asks: unique in a run.
 */
export function nextCall(resultTexts) {
  const settled = resultTexts.filter((text) => !/did not run/.test(text)).length
  return settled < CALLS ? { id: `call_${resultTexts.length + 1}`, item: settled + 1 } : undefined
}

/** Records that the model asked for `item` (the parent counts distinct items and all asks). */
export function recordAsk(files, item) {
  appendFileSync(files.asks, `${item}\n`)
}

/**
 * The tool body: tells the parent it started (the kill schedule counts these), waits for the
 * request to travel, appends `record` to the ledger and syncs it (the effect), waits for the
 * reply to travel, and answers.
 */
export async function appendEffect(files, record) {
  process.stdout.write(`body ${record.item}\n`)
  await sleep(WIRE_MS)
  const fd = openSync(files.ledger, 'a')
  try {
    writeSync(fd, `${JSON.stringify({ ...record, pid: process.pid })}\n`)
    fdatasyncSync(fd)
  } finally {
    closeSync(fd)
  }
  await sleep(WIRE_MS)
  return `appended item ${record.item}`
}

/** Every line of the ledger, parsed (an empty list before the first effect). */
export function readLedger(files) {
  if (!existsSync(files.ledger)) return []
  return readFileSync(files.ledger, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
}

/** Tells the parent this life is about to start (or resume) its run. */
export function ready() {
  process.stdout.write('ready\n')
}

/** Tells the parent the run finished, with what the subject reports about it. */
export function done(report) {
  process.stdout.write(`done ${JSON.stringify(report)}\n`)
}
