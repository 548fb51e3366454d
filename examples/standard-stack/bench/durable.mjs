#!/usr/bin/env node
// The six standard plugins on a durable session, beside the AI SDK's `generateText` (issue #28:
// "+ six plugins on a JSONL session <= 1.0 × generateText ... same for a PostgreSQL session").
// One model step of 100 no-op tool calls, then a text, measured as the peer bench does:
// µs per call request -> request (the model's first request to its second, over 100), and the
// whole run over 100. Rows, interleaved round by round in one process, in the peer bench's
// rhythm: 20 warm-up runs each, then 7 rounds in which each row runs 15 times after a full GC
// (medians over all 105 runs; with fewer runs per GC the GC's aftermath weighs more on every
// row, and the figures moved by a third between processes):
//   - ai `generateText`, a `MockLanguageModelV3` from `ai/test`, the tool made with `tool()` + zod;
//   - rein: kernel + agent + the six standard plugins in the recommended order
//     (`standardStack`), `maxParallelToolCalls: 10`, on a memory session, on a fresh JSONL
//     session file in a temporary folder, and on a fresh PostgreSQL session (`postgresSession`,
//     a new id per run). Every session is loaded before the clock starts and closed after it.
// Each rein row is also printed over `generateText`: that ratio is the figure to read, since
// absolute times move with the machine's load (`os.loadavg()` is printed before and after).
// "Waiting" is how long the event loop sat idle between the two requests (on the database, on
// a file sync); the rest of the step is code running.
// The PostgreSQL server is a throwaway one from `@rein/testing`'s `startPostgres`: its data
// folder is on /dev/shm when that RAM disk has room, and it runs with fsync=off, so its
// commits cost less than on a real disk (the JSONL file is in the temporary folder and is
// fdatasync'ed). For the PostgreSQL row it also prints the INSERTs one run sends between the
// two model requests and how long they were in flight, per call.
// Usage (build first: npx -y pnpm@10 build):
//   node --expose-gc examples/standard-stack/bench/durable.mjs
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { generateText, stepCountIs, tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { z } from 'zod'
import pg from 'pg'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, jsonlSession, memorySession } from '@rein/agent'
import { postgresSession } from '@rein/session-postgres'
import { startPostgres, whyNoPostgres } from '@rein/testing'
import { standardStack } from '../dist/src/index.js'
import { CALLS, calls, noopHarness } from './noop-harness.mjs'

if (!globalThis.gc) throw new Error('run with node --expose-gc')
const WARMUP = 20
const ROUNDS = 7
const PER_ROUND = 15
const missing = whyNoPostgres()
if (missing !== undefined) {
  console.log(`durable stack vs generateText: skipped, ${missing}`)
  process.exit(0)
}

// Every INSERT the PostgreSQL store sends: when it went out and when it was answered (every pg
// client shares one prototype). Only promise-style calls are timed; the store makes no other.
const query = pg.Client.prototype.query
let inserts = []
pg.Client.prototype.query = function (text, ...rest) {
  const result = query.call(this, text, ...rest)
  if (typeof text === 'string' && text.startsWith('INSERT') && typeof result?.then === 'function') {
    const insert = { start: performance.now(), end: NaN }
    inserts.push(insert)
    result.then(() => { insert.end = performance.now() }, () => { insert.end = performance.now() })
  }
  return result
}

/**
 * Notes a model request in `requests`: when it came, and the event loop's use so far (so that
 * the time between two requests splits into code running and waiting). Returns its number, 1 first.
 */
function noteRequest(requests) {
  requests.push({ at: performance.now(), loop: performance.eventLoopUtilization() })
  return requests.length
}

/** One AI SDK run: its model requests and the whole run, in ms. */
async function aiSdkRun() {
  const requests = []
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      if (noteRequest(requests) === 1) {
        const content = calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments }))
        return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] }
      }
      const results = prompt.flatMap((m) => m.role === 'tool' ? m.content.filter((p) => p.type === 'tool-result') : [])
      if (results.length !== CALLS) throw new Error(`generateText: the second request carried ${results.length} tool results`)
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }
    },
  })
  const tools = {
    noop: tool({ description: 'does nothing', inputSchema: z.object({ path: z.string(), line: z.number().int() }), execute: async () => 'ok' }),
  }
  const start = performance.now()
  const { text } = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(5) })
  const whole = performance.now() - start
  if (text !== 'done') throw new Error(`generateText ended with ${JSON.stringify(text)}`)
  return { requests, whole }
}

/** One rein run on `session` (loaded before the clock starts, closed after it stops). */
async function reinRun(ctx, session) {
  await session.load()
  const requests = []
  const provider = {
    async generate(req) {
      if (noteRequest(requests) === 1) return { role: 'assistant', content: '', toolCalls: calls }
      const results = req.messages.filter((m) => m.role === 'tool').length
      if (results !== CALLS) throw new Error(`rein: the second request carried ${results} tool results`)
      return { role: 'assistant', content: 'done' }
    },
  }
  const start = performance.now()
  const outcome = await createAgent(ctx, { provider, session, maxParallelToolCalls: 10 }).run('go')
  const whole = performance.now() - start
  await session.close?.()
  if (outcome.kind !== 'completed') throw new Error(`run ended ${outcome.kind}: ${outcome.error?.message ?? ''}`)
  return { requests, whole }
}

/** The INSERTs sent between the model's two requests: how many, and how long they were in flight there (ms). */
function insertsBetween([{ at: first }, { at: second }]) {
  const inside = inserts.filter((i) => i.start >= first && i.start < second)
  const ms = inside.reduce((sum, i) => sum + Math.min(i.end, second) - i.start, 0)
  return { count: inside.length, ms }
}

const server = await startPostgres()
const dir = mkdtempSync(join(tmpdir(), 'rein-durable-bench-'))
let runs = 0
const rows = [
  { name: 'ai generateText', run: aiSdkRun },
  { name: 'rein + 6 plugins, memory', run: (ctx) => reinRun(ctx, memorySession()) },
  { name: 'rein + 6 plugins, JSONL', run: (ctx) => reinRun(ctx, jsonlSession(join(dir, 'sessions', `run-${++runs}.jsonl`))) },
  {
    name: 'rein + 6 plugins, PostgreSQL',
    run: async (ctx) => {
      inserts = []
      const result = await reinRun(ctx, postgresSession({ connectionString: server.url, id: `bench-${++runs}` }))
      return { ...result, pg: insertsBetween(result.requests) }
    },
  },
]
for (const row of rows) row.samples = []

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const perCall = (ms) => ms * 1000 / CALLS
const before = loadavg()
try {
  const ctx = await noopHarness({ Context, kernel, standardStack }, { plugins: true, dir })
  for (let i = 0; i < WARMUP; i++) for (const row of rows) await row.run(ctx)
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts from another row, so that no row always runs right after the same one.
    for (const row of rows.map((_, i) => rows[(i + round) % rows.length])) {
      globalThis.gc()
      for (let i = 0; i < PER_ROUND; i++) row.samples.push(await row.run(ctx))
    }
  }
  await ctx.stop()
} finally {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
}
const after = loadavg()

const figures = rows.map((row) => ({
  name: row.name,
  step: perCall(median(row.samples.map(({ requests: [first, second] }) => second.at - first.at))),
  idle: perCall(median(row.samples.map(({ requests: [first, second] }) => performance.eventLoopUtilization(second.loop, first.loop).idle))),
  whole: perCall(median(row.samples.map((s) => s.whole))),
}))
const [peer] = figures
const widths = [18, 11, 15, 11, 11]
/** One line of the table: a name, then right-aligned columns. */
const line = (name, ...columns) => `  ${name.padEnd(30)}${columns.map((c, i) => c.padStart(widths[i])).join('')}`
const ratio = (value, base) => `${(value / base).toFixed(2)} ×`
console.log(`durable stack vs generateText: ${CALLS} no-op calls in one step (rein at cap 10), µs per call, median of ${ROUNDS} rounds × ${PER_ROUND} runs`)
console.log(`  load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}`)
console.log(line('', 'request->request', '× genText', 'of it waiting', 'whole run', '× genText'))
for (const f of figures) {
  const ratios = f === peer ? ['', ''] : [ratio(f.step, peer.step), ratio(f.whole, peer.whole)]
  console.log(line(f.name, f.step.toFixed(1), ratios[0], f.idle.toFixed(1), f.whole.toFixed(1), ratios[1]))
}
const pgRuns = rows.at(-1).samples.map((s) => s.pg)
console.log(`  PostgreSQL between the two requests: ${median(pgRuns.map((p) => p.count))} INSERT(s) per run, in flight ${perCall(median(pgRuns.map((p) => p.ms))).toFixed(1)} µs/call`)
