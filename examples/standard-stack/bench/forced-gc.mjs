#!/usr/bin/env node
// The peer benchmark's regime, without the peers: rounds of 15 agent runs of 100 no-op calls,
// with a forced full GC before each round (what `../shared/bench-peers` does), for the kernel +
// agent alone and with the six standard plugins. Prints µs per call, request to request, per
// position in the round: position 1 follows the GC. A position much slower than the others
// means V8 threw optimized code away at the GC (`node --trace-deopt`, reason "weak objects").
// Usage: node --expose-gc examples/standard-stack/bench/forced-gc.mjs   (build first: npx -y pnpm@10 build)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent } from '../../../packages/agent/dist/src/index.js'
import { standardStack } from '../dist/src/index.js'

if (!globalThis.gc) throw new Error('run with node --expose-gc')
const CALLS = 100
const ROUNDS = 30
const PER_ROUND = 15
// The audit file and the spill store of the plugged-in harness; removed when the bench ends.
const dir = mkdtempSync(join(tmpdir(), 'rein-forced-gc-'))

async function harness(withPlugins) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  if (withPlugins) {
    standardStack(ctx, { audit: { file: join(dir, 'audit.jsonl') }, spill: { dir } })
    await ctx.start()
  }
  ctx.tools.register(kernel.defineTool({
    name: 'noop', description: 'does nothing', parameters: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer' } } },
    isConcurrencySafe: () => true, execute: async () => 'ok',
  }))
  return ctx
}

/** One run: the model asks for `CALLS` calls, then answers; µs per call between its two requests. */
async function run(ctx) {
  const times = []
  const calls = Array.from({ length: CALLS }, (_, i) => ({ id: `call_${i}`, name: 'noop', arguments: JSON.stringify({ path: `f${i}`, line: i }) }))
  const provider = {
    async generate() {
      times.push(performance.now())
      return times.length === 1 ? { role: 'assistant', content: '', toolCalls: calls } : { role: 'assistant', content: 'done' }
    },
  }
  const outcome = await createAgent(ctx, { provider, maxParallelToolCalls: 10 }).run('go')
  if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}`)
  return (times[1] - times[0]) * 1000 / CALLS
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
console.log(`µs per call, median over ${ROUNDS} rounds, by position after the forced GC (1..${PER_ROUND})`)
try {
  for (const [label, withPlugins] of [['kernel + agent', false], ['+ 6 standard plugins', true]]) {
    const ctx = await harness(withPlugins)
    for (let i = 0; i < 20; i++) await run(ctx)
    const byPosition = Array.from({ length: PER_ROUND }, () => [])
    for (let round = 0; round < ROUNDS; round++) {
      globalThis.gc()
      for (let i = 0; i < PER_ROUND; i++) byPosition[i].push(await run(ctx))
    }
    const medians = byPosition.map(median)
    console.log(`${label.padEnd(22)} ${medians.map((m) => m.toFixed(1).padStart(5)).join(' ')}   all: ${median(byPosition.flat()).toFixed(1)}`)
    await ctx.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
