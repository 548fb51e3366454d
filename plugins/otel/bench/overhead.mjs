// What the plugin costs per tool call (run after `npx -y pnpm@10 build plugins/otel`):
//   node plugins/otel/bench/overhead.mjs
// One agent run = one batch of 100 no-op parallel calls, then a final answer; the cost per call
// is the run's wall time / 100. A one-call run shows the per-run part (the `agent/run-start`
// dispatch, the run span). Setups: no plugin; an empty plugin (what any plugin costs cordis);
// the plugin with no SDK registered (the API is a no-op); the plugin with an SDK (batch
// processor) whose exporter drops every span (what making spans costs).
// The OpenTelemetry API keeps its provider in a process-wide global, so each setup runs in its
// own child process; the setups alternate, several times over, and the medians are printed.
// No assertions: figures for the README.
import { spawnSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const SETUPS = ['no plugin', 'an empty plugin (baseline)', 'plugin, no SDK', 'plugin + SDK, spans dropped']
const ALTERNATIONS = 7
const ROUNDS = 15

async function measure(setup) {
  const { trace } = await import('@opentelemetry/api')
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base')
  const { Context } = await import('cordis')
  const kernel = await import('@rein/kernel')
  const { createAgent } = await import('@rein/agent')
  const { callMessage, scripted, textMessage, toolCall } = await import('@rein/testing')
  const otel = await import('../dist/src/index.js')
  if (setup === 3) {
    const dropAll = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} }
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropAll)] }))
  }
  const ctx = new Context()
  ctx.plugin(kernel)
  if (setup === 1) ctx.plugin({ name: 'empty', inject: ['tools'], apply() {} })
  if (setup >= 2) ctx.plugin(otel)
  await ctx.start()
  ctx.tools.register(kernel.defineTool({
    name: 'noop', description: 'does nothing', parameters: { type: 'object' },
    isConcurrencySafe: () => true, execute: () => null,
  }))
  const perCall = async (calls) => {
    const batch = callMessage(Array.from({ length: calls }, (_, i) => toolCall(`c${i}`, 'noop')))
    const once = async () => {
      const agent = createAgent(ctx, { provider: scripted([batch, textMessage('done')]) })
      globalThis.gc?.()
      const start = performance.now()
      const outcome = await agent.run('go')
      const ms = performance.now() - start
      agent.dispose()
      if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}`)
      return (ms * 1000) / calls
    }
    for (let i = 0; i < 5; i++) await once()
    const times = []
    for (let i = 0; i < ROUNDS; i++) times.push(await once())
    return median(times)
  }
  return { batch: await perCall(100), single: await perCall(1) }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const child = process.argv[2]
if (child !== undefined) {
  console.log(JSON.stringify(await measure(Number(child))))
} else {
  const results = SETUPS.map(() => ({ batch: [], single: [] }))
  const self = fileURLToPath(import.meta.url)
  for (let round = 0; round < ALTERNATIONS; round++) {
    SETUPS.forEach((_, setup) => {
      const run = spawnSync(process.execPath, ['--expose-gc', self, String(setup)], { encoding: 'utf8' })
      if (run.status !== 0) throw new Error(run.stderr)
      const { batch, single } = JSON.parse(run.stdout.trim().split('\n').at(-1))
      results[setup].batch.push(batch)
      results[setup].single.push(single)
    })
  }
  console.log(`µs per call, median of ${ALTERNATIONS} processes × ${ROUNDS} runs   100-call batch   1-call run`)
  SETUPS.forEach((label, setup) => {
    const { batch, single } = results[setup]
    console.log(`${label.padEnd(44)} ${median(batch).toFixed(1).padStart(14)} ${median(single).toFixed(1).padStart(12)}`)
  })
}
