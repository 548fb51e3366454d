#!/usr/bin/env node
// What each standard plugin adds to one tool call: `ctx.tools.execute` of a no-op tool (not
// idempotent, no rule names it, the default 30 s deadline), ten calls at a time on one run
// signal as the agent makes them, for the kernel alone and with each plugin alone. Each setup
// runs in a child process of its own (in one process the setups share the kernel's code, and
// the order they run in moves the figures), the setups alternate, and the medians are printed:
// CPU µs per call, and what the plugin adds. With `--hooks`, Node's promise hooks are on (as in
// `../shared/bench-peers`, where a promise costs several times as much). With several checkouts
// (`--checkouts a,b`, each built), each setup runs once per checkout in turn, side by side.
// No assertions: figures for docs/performance.md.
// Usage: node examples/standard-stack/bench/per-plugin.mjs [--hooks] [--checkouts dir,dir]   (build first: npx -y pnpm@10 build)
import { spawnSync } from 'node:child_process'
import { createHook } from 'node:async_hooks'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const SETUPS = ['kernel alone', 'timeout-policy', 'retry', 'cache', 'permission-guard', 'spill', 'audit']
const ALTERNATIONS = 5
const ROUNDS = 15
const BATCHES = 200
const PARALLEL = 10
const here = fileURLToPath(import.meta.url)
const hooks = process.argv.includes('--hooks')

/** Runs one setup of one checkout in this process; prints CPU µs per call. */
async function child(setup, checkout) {
  if (hooks) createHook({ init() {} }).enable()
  const from = createRequire(join(checkout, 'examples/standard-stack/package.json'))
  const load = (name) => import(pathToFileURL(from.resolve(name)).href)
  const { Context } = await load('cordis')
  const kernel = await load('@rein/kernel')
  const dir = mkdtempSync(join(tmpdir(), 'rein-per-plugin-'))
  const configs = { spill: { dir }, audit: { file: join(dir, 'audit.jsonl') } }
  const ctx = new Context()
  ctx.plugin(kernel)
  if (setup !== 'kernel alone') ctx.plugin(await load(`@rein/plugin-${setup}`), configs[setup] ?? {})
  await ctx.start()
  ctx.tools.register(kernel.defineTool({
    name: 'noop', description: 'does nothing',
    parameters: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer' } } },
    execute: () => 'ok',
  }))
  const execute = ctx.tools.execute
  const signal = new AbortController().signal
  const batch = async () => {
    const calls = []
    for (let i = 0; i < PARALLEL; i++) calls.push(execute({ id: `c${i}`, name: 'noop', arguments: { path: `src/f${i}.ts`, line: i } }, { signal }))
    for (const result of await Promise.all(calls)) if (result.isError) throw new Error(result.error.message)
  }
  const samples = []
  for (let round = 0; round < ROUNDS + 3; round++) {
    const start = process.cpuUsage()
    for (let i = 0; i < BATCHES; i++) await batch()
    const used = process.cpuUsage(start)
    if (round >= 3) samples.push((used.user + used.system) / (BATCHES * PARALLEL))
  }
  await ctx.stop()
  rmSync(dir, { recursive: true, force: true })
  console.log(median(samples))
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
}

const setupArg = process.argv.indexOf('--child')
if (setupArg >= 0) {
  await child(process.argv[setupArg + 1], process.argv[setupArg + 2])
} else {
  const listed = process.argv.indexOf('--checkouts')
  const checkouts = listed >= 0 ? process.argv[listed + 1].split(',').map((dir) => resolve(dir)) : [resolve(dirname(here), '../../..')]
  const figures = new Map()
  for (let alternation = 0; alternation < ALTERNATIONS; alternation++) {
    for (const setup of SETUPS) {
      for (const checkout of checkouts) {
        const args = ['--expose-gc', here, '--child', setup, checkout, ...(hooks ? ['--hooks'] : [])]
        const run = spawnSync(process.execPath, args, { encoding: 'utf8' })
        if (run.status !== 0) throw new Error(`${setup} (${checkout}) failed: ${run.stderr}`)
        const key = `${setup}\u0000${checkout}`
        figures.set(key, [...(figures.get(key) ?? []), Number(run.stdout.trim())])
      }
    }
  }
  console.log(`\nper plugin: ${ALTERNATIONS} alternations x ${ROUNDS} rounds x ${BATCHES} batches of ${PARALLEL} parallel calls${hooks ? ', promise hooks on' : ''}`)
  for (const checkout of checkouts) {
    console.log(`\n${checkout}`)
    console.log('setup'.padEnd(18), 'CPU µs/call'.padStart(12), 'added'.padStart(8))
    const base = median(figures.get(`kernel alone\u0000${checkout}`))
    for (const setup of SETUPS) {
      const us = median(figures.get(`${setup}\u0000${checkout}`))
      console.log(setup.padEnd(18), us.toFixed(2).padStart(12), (setup === 'kernel alone' ? '' : `+${(us - base).toFixed(2)}`).padStart(8))
    }
  }
}
