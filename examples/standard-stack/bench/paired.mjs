#!/usr/bin/env node
// Two builds of rein side by side, in the peer benchmark's rhythm, to tell what a change did: in
// `../shared/bench-peers` a row's median moves by half between processes of the same build, so
// two runs of it cannot compare two builds. Here each process runs both builds, and the ratio is
// taken within a process; as a build's own copy of the code still fares differently from one
// process to the next, `--processes N` (default 4) processes run, the builds' order swapped
// every other one, and the median ratio is printed beside each process's.
// Each checkout (`--checkouts a,b`, each built) gets its own copy of every module (loaded from
// its own folder), and three rows: kernel + agent, + the six standard plugins (`standardStack`),
// and the same on a fresh JSONL session file per run. A step is one model request asking for 100
// no-op calls (JSON arguments, a concurrency-safe async tool), then a text; the figure is µs per
// call from the first request to the second, as the peer bench measures it. 20 warm-up steps per
// row, then ROUNDS rounds in which every row of every checkout runs 15 steps after a forced full
// GC, the order rotating round by round. Promise hooks are on (an `AsyncLocalStorage`, as
// LangGraph and the OpenAI Agents SDK turn them on in the peer bench) unless `--no-hooks`.
// With `--postgres`, a fourth row: the six plugins on a fresh PostgreSQL session per run
// (`postgresSession`, each checkout its own store; one throwaway server per process, from
// `@rein/testing`'s `startPostgres`).
// Prints each row's median per checkout and, for two, the second over the first.
// Usage: node --expose-gc examples/standard-stack/bench/paired.mjs --checkouts <before>,<after> [--no-hooks] [--postgres] [--rounds N] [--processes N]
import { spawnSync } from 'node:child_process'
import { AsyncLocalStorage } from 'node:async_hooks'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { CALLS, calls, noopHarness } from './noop-harness.mjs'

if (!globalThis.gc) throw new Error('run with node --expose-gc')
const argument = (name) => process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined
const here = dirname(fileURLToPath(import.meta.url))
const checkouts = (argument('--checkouts') ?? resolve(here, '../../..')).split(',').map((dir) => resolve(dir))
const ROUNDS = Number(argument('--rounds') ?? 20)
const PER_ROUND = 15
const WARMUP = 20
if (!process.argv.includes('--no-hooks')) new AsyncLocalStorage().enterWith({ bench: 'paired' })

/** The rows of one checkout, each a function that runs one step and answers its µs per call; files go in `dir`, sessions on `postgres` when given. */
async function rowsOf(checkout, n, dir, postgres) {
  const from = createRequire(join(checkout, 'examples/standard-stack/package.json'))
  const load = (name) => import(pathToFileURL(from.resolve(name)).href)
  const { Context } = await load('cordis')
  const kernel = await load('@rein/kernel')
  const { createAgent, jsonlSession } = await load('@rein/agent')
  const { standardStack } = await import(pathToFileURL(join(checkout, 'examples/standard-stack/dist/src/index.bundle.js')).href)
  const harness = (plugins) => noopHarness({ Context, kernel, standardStack }, { plugins, dir: join(dir, `checkout-${n}`) })
  let runs = 0
  const { postgresSession } = postgres ? await load('@rein/session-postgres') : {}
  const sessionFor = {
    memory: () => undefined,
    jsonl: () => jsonlSession(join(dir, `sessions-${n}`, `run-${++runs}.jsonl`)),
    postgres: () => postgresSession({ connectionString: postgres, id: `paired-${n}-${++runs}` }),
  }
  const step = (ctx, store) => async () => {
    const at = []
    const provider = {
      async generate(req) {
        at.push(performance.now())
        if (at.length === 1) return { role: 'assistant', content: '', toolCalls: calls }
        if (req.messages.filter((m) => m.role === 'tool').length !== CALLS) throw new Error('the second request lacks results')
        return { role: 'assistant', content: 'done' }
      },
    }
    const session = sessionFor[store]()
    const outcome = await createAgent(ctx, { provider, maxParallelToolCalls: 10, ...(session ? { session } : {}) }).run('go')
    await session?.close?.()
    if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}: ${outcome.error?.message ?? ''}`)
    return (at[1] - at[0]) * 1000 / CALLS
  }
  const bare = await harness(false)
  const full = await harness(true)
  const rows = [['kernel + agent', step(bare, 'memory')], ['+ 6 plugins', step(full, 'memory')], ['+ 6 plugins, JSONL session', step(full, 'jsonl')]]
  return postgres ? [...rows, ['+ 6 plugins, PostgreSQL session', step(full, 'postgres')]] : rows
}

/** The middle value (the mean of the two middle ones for an even count). */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** One process: every row of every checkout, in the rhythm above; prints the medians as JSON. */
async function measure(dir, postgres) {
  const cases = []
  for (const [n, checkout] of checkouts.entries()) {
    for (const [row, run] of await rowsOf(checkout, n, dir, postgres)) cases.push({ row, n, run, samples: [] })
  }
  for (const c of cases) for (let i = 0; i < WARMUP; i++) await c.run()
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[(j + round) % cases.length]
      globalThis.gc()
      for (let i = 0; i < PER_ROUND; i++) c.samples.push(await c.run())
    }
  }
  console.log(JSON.stringify(cases.map((c) => ({ row: c.row, n: c.n, us: median(c.samples) }))))
}

if (process.argv.includes('--child')) {
  const dir = mkdtempSync(join(tmpdir(), 'rein-paired-'))
  const testing = process.argv.includes('--postgres')
    ? await import(pathToFileURL(createRequire(join(checkouts[0], 'examples/standard-stack/package.json')).resolve('@rein/testing')).href)
    : undefined
  const missing = testing?.whyNoPostgres()
  if (missing !== undefined) throw new Error(`--postgres: ${missing}`)
  const server = await testing?.startPostgres()
  try {
    await measure(dir, server?.url)
  } finally {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  }
} else {
  const processes = Number(argument('--processes') ?? 4)
  const before = loadavg()
  // rows[row][n] = the medians of checkout n, one per process
  const rows = new Map()
  for (let p = 0; p < processes; p++) {
    const swapped = p % 2 === 1
    const order = swapped ? [...checkouts].reverse() : checkouts
    const args = ['--expose-gc', fileURLToPath(import.meta.url), '--child', '--checkouts', order.join(','), '--rounds', String(ROUNDS),
      ...['--no-hooks', '--postgres'].filter((flag) => process.argv.includes(flag))]
    const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 })
    if (child.status !== 0) throw new Error(`a measuring process failed:\n${child.stderr}`)
    for (const { row, n, us } of JSON.parse(child.stdout.trim().split('\n').at(-1))) {
      const checkout = swapped ? checkouts.length - 1 - n : n
      if (!rows.has(row)) rows.set(row, checkouts.map(() => []))
      rows.get(row)[checkout].push(us)
    }
  }
  console.log(`paired: ${CALLS} no-op calls per step, µs per call request -> request, medians of ${ROUNDS} rounds × ${PER_ROUND} steps ` +
    `in each of ${processes} processes${process.argv.includes('--no-hooks') ? '' : ', promise hooks on'}; ` +
    `load average ${before.map((l) => l.toFixed(2)).join(' ')} -> ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  checkouts.forEach((checkout, n) => console.log(`  ${n + 1}: ${checkout}`))
  for (const [row, figures] of rows) {
    const each = figures.map((list, n) => `${n + 1}: ${list.map((us) => us.toFixed(1)).join(' ')}`).join('   ')
    const ratios = figures.length === 2 ? figures[1].map((us, p) => us / figures[0][p]) : []
    const ratio = ratios.length > 0 ? `   2 ÷ 1 ${ratios.map((r) => r.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(2)}` : ''
    console.log(`  ${row}\n    ${each}${ratio}`)
  }
}
