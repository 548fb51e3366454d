// Makespan benchmark of the agent's scheduler (run after `npx -y pnpm@10 build`):
//   node packages/agent/bench/makespan.mjs
// Sleep-based tools in 50 ms units; for each plan it prints the ideal makespan (the critical
// path, or the pool bound), the measured one (model answer -> batch committed, median of 5 runs)
// and their ratio (target <= 1.05). Then the per-call cost of one batch of 10,000 no-op calls
// against one of 100 (target <= 1.5x).
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { callMessage, scripted, sleepTool, textMessage, toolCall } from '@rein/testing'
import { createAgent } from '../dist/src/index.js'

const U = 50

// Collect garbage before each measured batch, so that a collection owed to set-up work (or to
// the previous run) does not land inside the measured window.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')

async function harness() {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  ctx.tools.register(sleepTool())
  ctx.tools.register(kernel.defineTool({
    name: 'noop', description: 'does nothing', parameters: { type: 'object' },
    isConcurrencySafe: () => true, execute: () => null,
  }))
  return ctx
}

/**
 * The makespan of one batch run by the agent: from the moment the model's answer is handed to
 * the loop until the batch's results are committed (`agent/turn-end`). Model time is excluded.
 */
async function timeBatch(calls, maxParallelToolCalls) {
  const ctx = await harness()
  gc()
  let start = 0
  let end = 0
  ctx.on('agent/turn-end', () => { end = performance.now() })
  const answer = () => { start = performance.now(); return callMessage(calls) }
  const agent = createAgent(ctx, { provider: scripted([answer, textMessage('done')]), maxParallelToolCalls })
  const outcome = await agent.run('go')
  if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}: ${outcome.error?.message}`)
  agent.dispose()
  return end - start
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function measure(calls, cap, runs = 5) {
  await timeBatch(calls, cap)
  const times = []
  for (let i = 0; i < runs; i++) times.push(await timeBatch(calls, cap))
  return median(times)
}

const sleep = (id, units, extra = {}) => toolCall(id, 'sleep', { ms: units * U, ...extra })

/**
 * A seeded random DAG of `n` concurrency-safe sleeps; returns the calls and its critical path.
 * Edges are `$depends_on` lists, or `${id.result}` references when `references` is set.
 */
function randomDag(n, seed, references = false) {
  let state = seed
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648)
  const finish = []
  const calls = []
  for (let i = 0; i < n; i++) {
    const units = 1 + Math.floor(random() * 2)
    const deps = new Set()
    const count = i === 0 ? 0 : Math.floor(random() * 3)
    for (let k = 0; k < count; k++) deps.add(Math.floor(random() * i))
    const ready = Math.max(0, ...[...deps].map((d) => finish[d]))
    finish.push(ready + units * U)
    const ids = [...deps].map((d) => `d${d}`)
    const edges = references ? { after: ids.map((id) => `\${${id}.result}`).join(' ') } : { $depends_on: ids }
    calls.push(sleep(`d${i}`, units, deps.size ? edges : {}))
  }
  return { calls, ideal: Math.max(...finish) }
}

const dag = randomDag(100, 42)
const dagWithReferences = randomDag(100, 42, true)
const plans = [
  {
    name: '4 calls [c1, c2, c3<-c1, c4<-c2,c3] (references)',
    calls: [sleep('c1', 1), sleep('c2', 1), sleep('c3', 1, { after: '${c1.result}' }),
      sleep('c4', 1, { after: '${c2.result} ${c3.result}' })],
    cap: 10, ideal: 3 * U,
  },
  {
    name: '[A 6u, B 2u, C<-B 2u, D<-C 2u] (references)',
    calls: [sleep('A', 6), sleep('B', 2), sleep('C', 2, { after: '${B.result}' }), sleep('D', 2, { after: '${C.result}' })],
    cap: 10, ideal: 6 * U,
  },
  {
    name: '20 parallel calls, cap 10',
    calls: Array.from({ length: 20 }, (_, i) => sleep(`p${i}`, 1)),
    cap: 10, ideal: 2 * U,
  },
  { name: 'random 100-call DAG ($depends_on), cap 128', calls: dag.calls, cap: 128, ideal: dag.ideal },
  // Not a target: a call with references is classified only once they are substituted, so it
  // holds back every later call until its dependencies are final (see the scheduler docs).
  { name: 'same DAG with ${} references (info)', calls: dagWithReferences.calls, cap: 128, ideal: dagWithReferences.ideal, info: true },
]

await timeBatch([sleep('warm', 0)], 10)
const rows = []
for (const plan of plans) {
  const measured = await measure(plan.calls, plan.cap)
  rows.push([plan.name, plan.ideal.toFixed(0), measured.toFixed(1), (measured / plan.ideal).toFixed(3),
    plan.info ? '-' : measured / plan.ideal <= 1.05 ? 'ok' : 'MISSED'])
}

const noops = (n) => Array.from({ length: n }, (_, i) => toolCall(`n${i}`, 'noop'))
for (let i = 0; i < 5; i++) await timeBatch(noops(1000), 10)
const perCall100 = await (async () => {
  const times = []
  for (let i = 0; i < 15; i++) times.push(await timeBatch(noops(100), 10))
  return median(times) / 100
})()
const perCall10k = (await measure(noops(10_000), 10)) / 10_000

const pad = (text, width) => String(text).padEnd(width)
console.log(`${pad('plan (50 ms units)', 50)}${pad('ideal ms', 10)}${pad('measured ms', 13)}${pad('ratio', 8)}target<=1.05`)
for (const row of rows) console.log(`${pad(row[0], 50)}${pad(row[1], 10)}${pad(row[2], 13)}${pad(row[3], 8)}${row[4]}`)
const ratio = perCall10k / perCall100
console.log(`\nno-op calls in one batch: ${(perCall100 * 1000).toFixed(1)} µs/call at 100, ` +
  `${(perCall10k * 1000).toFixed(1)} µs/call at 10,000; ratio ${ratio.toFixed(2)} (target <= 1.5: ${ratio <= 1.5 ? 'ok' : 'MISSED'})`)
