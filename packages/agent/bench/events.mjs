// Dispatch cost of the agent's observation events (run after `npx -y pnpm@10 build`):
//   node packages/agent/bench/events.mjs
// Events per second (best of 5 rounds) for one `agent/call-end`-sized event, as the scheduler
// sends it (`listens` first, then `emit`): with no listener, with one run observer (the per-run
// fast path), with one `ctx.on` listener (a cordis dispatch), and cordis' own `emit` without
// the listener check, for comparison. No assertions: figures for docs/ARCHITECTURE.md.
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { AgentEvents } from '../dist/src/events.js'

const N = 100_000
let sink = 0
const listener = (event) => { sink += event.index }
const event = (index) => ({ runId: 'r', agent: 'a', turn: 1, index, id: 'c', name: 't' })

function rate(label, send) {
  for (let i = 0; i < 10_000; i++) send(i)
  let best = 0
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < N; i++) send(i)
    best = Math.max(best, N / (Number(process.hrtime.bigint() - start) / 1e9))
  }
  const ns = 1e9 / best
  console.log(`${label.padEnd(46)} ${best.toExponential(2).padStart(9)} /s ${(ns < 1000 ? `${ns.toFixed(0)} ns` : `${(ns / 1000).toFixed(1)} µs`).padStart(9)}`)
}

async function context() {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  return ctx
}

const asScheduler = (events) => (i) => {
  if (events.listens('agent/call-end')) events.emit('agent/call-end', event(i))
}

console.log('agent/call-end, one event at a time')
{
  const events = new AgentEvents(await context(), 'r')
  rate('no listener', asScheduler(events))
}
{
  const events = new AgentEvents(await context(), 'r')
  events.observe({ 'agent/call-end': listener })
  rate('1 run observer (run.observe)', asScheduler(events))
}
{
  const ctx = await context()
  ctx.on('agent/call-end', listener)
  rate('1 ctx.on listener (cordis dispatch)', asScheduler(new AgentEvents(ctx, 'r')))
}
{
  const ctx = await context()
  const lifecycle = ctx.lifecycle
  rate('cordis lifecycle.emit, no listener, no check', (i) => lifecycle.emit('agent/call-end', event(i)))
}
if (sink < 0) console.log(sink)
