// What a PostgreSQL session costs per call (run after `npx -y pnpm@10 build`; needs the PostgreSQL
// binaries that the package's tests use):
//   node --expose-gc packages/session-postgres/bench/session.mjs
// One model step of 100 no-op parallel calls at `maxParallelToolCalls: 10` (as the peer bench
// runs it) on a memory session and on a PostgreSQL session (a fresh session id per run, each
// append acknowledged after its transaction committed with synchronous_commit on), interleaved
// round by round, on a throwaway server started here. It prints µs per call (median of the
// rounds, whole run: both model steps), the PostgreSQL row over the memory row, and how many
// INSERTs one run makes: the figure group commit keeps low (one per append would be 200 or
// more). The server's data folder is wherever the test servers keep theirs (a RAM disk when
// there is one), so its commits are cheaper than on a real disk: compare the INSERT count
// and the ratio, not the absolute times.
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, memorySession } from '@rein/agent'
import { callMessage, scripted, startPostgres, textMessage, toolCall, whyNoPostgres } from '@rein/testing'
import { postgresSession } from '../dist/src/index.js'

const CALLS = 100
const ROUNDS = 15
const missing = whyNoPostgres()
if (missing !== undefined) {
  console.log(`postgres session: skipped, ${missing}`)
  process.exit(0)
}
const server = await startPostgres()

// Count the store's INSERTs: every pg client shares one prototype.
const query = pg.Client.prototype.query
let inserts = 0
pg.Client.prototype.query = function (text, ...rest) {
  if (typeof text === 'string' && text.trimStart().startsWith('INSERT')) inserts++
  return query.call(this, text, ...rest)
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
/** One run on a fresh session of `kind`: its µs per call and the INSERTs it made (the session opened first, untimed). */
async function once(kind) {
  const session = kind === 'postgres' ? postgresSession({ connectionString: server.url, id: `bench-${++runs}` }) : memorySession()
  await session.load()
  globalThis.gc?.()
  inserts = 0
  const start = performance.now()
  const outcome = await createAgent(ctx, { provider: scripted([step, textMessage('done')]), session, maxParallelToolCalls: 10 }).run('go')
  const us = (performance.now() - start) * 1000 / CALLS
  const made = inserts
  await session.close?.()
  if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}: ${outcome.error?.message ?? ''}`)
  return { us, inserts: made }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
try {
  for (let i = 0; i < 5; i++) { await once('memory'); await once('postgres') }
  const memory = []
  const durable = []
  const counts = []
  for (let round = 0; round < ROUNDS; round++) {
    memory.push((await once('memory')).us)
    const run = await once('postgres')
    durable.push(run.us)
    counts.push(run.inserts)
  }
  const [m, p] = [median(memory), median(durable)]
  console.log(`postgres session: ${CALLS} no-op calls in one step, cap 10, median of ${ROUNDS} interleaved rounds`)
  console.log(`  memory session                 ${m.toFixed(1).padStart(8)} µs/call`)
  console.log(`  PostgreSQL session             ${p.toFixed(1).padStart(8)} µs/call   ${median(counts)} INSERTs per run`)
  console.log(`  PostgreSQL over memory         ${(p / m).toFixed(1).padStart(8)} ×`)
} finally {
  await server.close()
}
