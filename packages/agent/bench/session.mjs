// What durability costs per call (run after `npx -y pnpm@10 build`):
//   node --expose-gc packages/agent/bench/session.mjs
// One model step of 100 no-op parallel calls at `maxParallelToolCalls: 10` (as the peer bench
// runs it), on a memory session and on a JSONL session file (fdatasync per write group, as
// `rein run` writes one), interleaved round by round. It prints µs per call (median of the
// rounds, whole run: both model steps), the JSONL row over the memory row, and how many
// fdatasyncs one run of the JSONL session makes: the figure group commit keeps low (a sync
// per result would be 100 or more). Figures move with the disk and the load; the ratio and
// the sync count are what to compare.
import { mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { callMessage, scripted, textMessage, toolCall } from '@rein/testing'
import { createAgent, jsonlSession, memorySession } from '../dist/src/index.js'

const CALLS = 100
const ROUNDS = 15
const dir = mkdtempSync(join(tmpdir(), 'rein-bench-session-'))

// Count the store's syncs: every FileHandle shares one prototype.
const probe = await open(join(dir, 'probe'), 'w')
const handleProto = Object.getPrototypeOf(probe)
await probe.close()
const datasync = handleProto.datasync
let syncs = 0
handleProto.datasync = function () {
  syncs++
  return datasync.call(this)
}

const ctx = new Context()
ctx.plugin(kernel)
await ctx.start()
ctx.tools.register(kernel.defineTool({
  name: 'noop', description: 'does nothing', parameters: { type: 'object' },
  isConcurrencySafe: () => true, execute: () => null,
}))
const step = callMessage(Array.from({ length: CALLS }, (_, i) => toolCall(`call_${i}`, 'noop')))

let runs = 0
/** One run on a fresh session of `kind`: its µs per call and the syncs it made. */
async function once(kind) {
  const session = kind === 'jsonl' ? jsonlSession(join(dir, `run-${++runs}.jsonl`)) : memorySession()
  globalThis.gc?.()
  syncs = 0
  const start = performance.now()
  const outcome = await createAgent(ctx, { provider: scripted([step, textMessage('done')]), session, maxParallelToolCalls: 10 }).run('go')
  const us = (performance.now() - start) * 1000 / CALLS
  const made = syncs
  await session.close?.()
  if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}`)
  return { us, syncs: made }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
for (let i = 0; i < 5; i++) { await once('memory'); await once('jsonl') }
const memory = []
const jsonl = []
const syncCounts = []
for (let round = 0; round < ROUNDS; round++) {
  memory.push((await once('memory')).us)
  const durable = await once('jsonl')
  jsonl.push(durable.us)
  syncCounts.push(durable.syncs)
}
rmSync(dir, { recursive: true, force: true })

const [m, j] = [median(memory), median(jsonl)]
console.log(`session stores: ${CALLS} no-op calls in one step, cap 10, median of ${ROUNDS} interleaved rounds`)
console.log(`  memory session                 ${m.toFixed(1).padStart(8)} µs/call`)
console.log(`  JSONL session (fdatasync)      ${j.toFixed(1).padStart(8)} µs/call   ${median(syncCounts)} syncs per run`)
console.log(`  JSONL over memory              ${(j / m).toFixed(1).padStart(8)} ×`)
