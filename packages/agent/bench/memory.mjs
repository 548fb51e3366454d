#!/usr/bin/env node
// Memory per call, measured as retained heap after a forced GC (part of `pnpm bench`):
//   - in flight: 10,000 calls of one batch started and held inside their bodies (cap 10,000),
//     against the same context before the batch;
//   - committed: the session of a finished 10,000-call batch (its entries and messages), against
//     the same after a 100-call batch, per extra call;
//   - the last batch: what the kernel holds of the batch it ran last, until its next call.
// Bounded means: every figure is a constant per call, and nothing of a run is left once the
// kernel's next call has started.
// Usage: node --expose-gc packages/agent/bench/memory.mjs   (build first: npx -y pnpm@10 build)
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, memorySession } from '@rein/agent'
import { callMessage, scripted, toolCall } from '@rein/testing'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed }
const N = 10_000

async function harness(hold) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  ctx.tools.register(kernel.defineTool({
    name: 'work', description: 'returns a small value', parameters: { type: 'object' },
    isConcurrencySafe: () => true,
    execute: async () => { if (hold) await hold.promise; return { ok: true } },
  }))
  return ctx
}

const calls = (n) => Array.from({ length: n }, (_, i) => toolCall(`c${i}`, 'work', { i }))

// In flight: every call started and waiting inside its body.
let release
const hold = { promise: new Promise((resolve) => { release = resolve }) }
const ctx = await harness(hold)
let started = 0
ctx.tools.register(kernel.defineTool({ name: 'noop', description: 'n', parameters: { type: 'object' }, execute: () => null }))
const before = heap()
const agent = createAgent(ctx, { provider: scripted([callMessage(calls(N))]), maxParallelToolCalls: N, session: memorySession() })
ctx.on('agent/call-start', () => { started++ })
const run = agent.run('go')
while (started < N) await new Promise((resolve) => setImmediate(resolve))
for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
const inFlight = (heap() - before) / N
release()
await run

// Committed: what a finished session keeps, per call.
async function committed(n) {
  const c = await harness()
  const session = memorySession()
  const a = createAgent(c, { provider: scripted([callMessage(calls(n))]), maxParallelToolCalls: 10, session })
  const start = heap()
  await a.run('go')
  const held = heap() - start
  // The kernel holds the last call it watched, and with it that batch's scheduler state, until
  // its next call (kernel/src/abandon.ts): one more call lets the big batch go.
  await c.tools.execute({ id: 'next', name: 'work', arguments: '{}' }, { signal: new AbortController().signal })
  const kept = heap() - start
  return { kept, held, session, c }
}
const small = await committed(100)
const large = await committed(N)
const perCommitted = (large.kept - small.kept) / (N - 100)
const perHeld = (large.held - small.held) / (N - 100) - perCommitted

console.log(`memory per call (retained heap after GC, ${N.toLocaleString('en')} calls)`)
console.log(`  in flight (started, held in its body)   ${(inFlight / 1024).toFixed(2)} KiB`)
console.log(`  committed (kept by the memory session)   ${(perCommitted / 1024).toFixed(2)} KiB`)
console.log(`  the last batch, until the kernel's next call   ${(perHeld / 1024).toFixed(2)} KiB`)
process.exit(0)
