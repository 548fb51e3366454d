// The cost of one call through the kernel, side by side in one run: a direct `await
// tool.execute()`, `ctx.tools.execute` with no plugins, and with 6 no-op plugins on each hook.
// Figures are per call (µs) and as ratios to the direct call. Run: pnpm bench (after npx -y pnpm@10 build).
// `ctx.tools` is a cordis service: each property access through a context builds tracing
// proxies, so a loop takes `ctx.tools.execute` once (as the agent does); the last row shows why.
import { Context } from 'cordis'
import * as kernel from '../dist/src/index.js'

const ROUNDS = 5
const CALLS = 20_000

const tool = kernel.defineTool({
  name: 'noop',
  description: 'does nothing',
  parameters: { type: 'object', properties: { n: { type: 'integer' } } },
  output: { schema: { type: 'integer' } },
  execute: (args) => args.n ?? 0,
})

async function harness(pluginsPerHook) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  for (let i = 0; i < pluginsPerHook; i++) {
    ctx.plugin({
      name: `noop-${i}`,
      inject: ['tools'],
      apply(ctx) {
        ctx.on('tools/pre-execute', (_exec, next) => next())
        ctx.on('tools/execute', (_exec, next) => next())
        ctx.on('tools/post-execute', (_exec, _result, next) => next())
        ctx.on('tools/result', () => {})
      },
    })
  }
  await ctx.start()
  ctx.tools.register(tool)
  return ctx
}

async function measure(run) {
  for (let i = 0; i < 2_000; i++) await run(i) // warm-up
  let best = Infinity
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < CALLS; i++) await run(i)
    const us = Number(process.hrtime.bigint() - start) / 1e3 / CALLS
    best = Math.min(best, us)
  }
  return best
}

const bare = (await harness(0)).tools.execute
const stackedCtx = await harness(6)
const stacked = stackedCtx.tools.execute
// Like the agent loop: one run signal shared by every call of the run.
const signal = new AbortController().signal
const exec = { signal, progress() {}, meta: {} }
const call = (i) => ({ id: `c${i}`, name: 'noop', arguments: { n: i } })
const rows = [
  ['direct await tool.execute()', await measure((i) => tool.execute({ n: i }, exec))],
  ['ctx.tools.execute, 0 plugins', await measure((i) => bare(call(i), { signal }))],
  ['ctx.tools.execute, 6 plugins/hook', await measure((i) => stacked(call(i), { signal }))],
  ['  same, raw JSON arguments', await measure((i) => stacked({ id: `c${i}`, name: 'noop', arguments: `{"n":${i}}` }, { signal }))],
  ['  same, ctx.tools looked up per call', await measure((i) => stackedCtx.tools.execute(call(i), { signal }))],
]
const base = rows[0][1]
const zero = rows[1][1]
console.log(`\nkernel pipeline: best of ${ROUNDS} rounds x ${CALLS} sequential calls`)
console.log('case'.padEnd(36), 'µs/call'.padStart(9), 'x direct'.padStart(10), 'x 0 plugins'.padStart(12))
for (const [name, us] of rows) {
  console.log(name.padEnd(36), us.toFixed(2).padStart(9), (us / base).toFixed(1).padStart(10), (us / zero).toFixed(2).padStart(12))
}
