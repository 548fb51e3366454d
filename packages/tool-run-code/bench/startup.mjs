// What a run_code call costs before the model's code does anything, side by side in one run:
// a sandbox thread's start (cold: the first call of a harness), a warm call (fresh QuickJS
// runtime and context on an idle thread), a warm call with one sub-call, and, for comparison,
// the in-process alternative (a runtime and context on the main thread, no thread at all).
// Also: how long an abort takes to stop a busy loop. Median of each, in ms.
// Run: npx -y pnpm@10 build && node packages/tool-run-code/bench/startup.mjs
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { newQuickJSWASMModule } from 'quickjs-emscripten'
import * as runCode from '../dist/src/index.js'

const COLD = 10
const WARM = 200

const add = kernel.defineTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }) => a + b,
})

async function harness() {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  ctx.plugin(runCode, {})
  await ctx.start()
  ctx.tools.register(add)
  return ctx
}

let ids = 0
async function call(execute, code, signal) {
  const result = await execute({ id: `b${++ids}`, name: 'run_code', arguments: { code } }, { signal })
  if (result.isError && !signal) throw new Error(result.content[0].text)
  return result
}

async function timed(fn) {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]

// Cold: a new harness each time, so its first call starts a thread.
const cold = []
for (let i = 0; i < COLD; i++) {
  const ctx = await harness()
  cold.push(await timed(() => call(ctx.tools.execute, 'return 1')))
  await ctx.stop()
}

const ctx = await harness()
const execute = ctx.tools.execute
await call(execute, 'return 1')
const warm = []
for (let i = 0; i < WARM; i++) warm.push(await timed(() => call(execute, 'return 1')))
const subCall = []
for (let i = 0; i < WARM; i++) subCall.push(await timed(() => call(execute, 'return await tools.add({ a: 1, b: 2 })')))
const direct = []
for (let i = 0; i < WARM; i++) direct.push(await timed(() => execute({ id: `d${i}`, name: 'add', arguments: { a: 1, b: 2 } }, {})))

// The in-process alternative: what each call would cost without a thread.
const moduleLoad = []
for (let i = 0; i < COLD; i++) moduleLoad.push(await timed(() => newQuickJSWASMModule()))
const module = await newQuickJSWASMModule()
const inProcess = []
for (let i = 0; i < WARM; i++) {
  inProcess.push(await timed(async () => {
    const runtime = module.newRuntime()
    runtime.setMemoryLimit(64 * 1024 * 1024)
    runtime.setInterruptHandler(() => false)
    const context = runtime.newContext()
    const promise = context.unwrapResult(context.evalCode('(async () => { return 1 })()'))
    runtime.executePendingJobs()
    const state = context.getPromiseState(promise)
    if (state.type === 'fulfilled') state.value.dispose()
    promise.dispose()
    context.dispose()
    runtime.dispose()
  }))
}

// How long an abort takes to end a busy loop (the thread's event loop is not turning).
const stop = []
for (let i = 0; i < 20; i++) {
  const controller = new AbortController()
  const running = call(execute, 'while (true) {}', controller.signal)
  await new Promise((resolve) => setTimeout(resolve, 20))
  const start = performance.now()
  controller.abort()
  await running
  stop.push(performance.now() - start)
}
await ctx.stop()

const rows = [
  ['cold call (thread start + QuickJS load + run)', cold],
  ['warm call, `return 1`', warm],
  ['warm call, one sub-call', subCall],
  ['a direct call of the same tool (no run_code)', direct],
  ['in-process QuickJS module load (no thread)', moduleLoad],
  ['in-process runtime + context + run (no thread)', inProcess],
  ['abort -> settled, busy loop', stop],
]
console.log('\n@rein/tool-run-code start-up (ms)                    median       min')
for (const [name, list] of rows) {
  console.log(`  ${name.padEnd(48)} ${median(list).toFixed(3).padStart(9)} ${Math.min(...list).toFixed(3).padStart(9)}`)
}
process.exit(0)
