// What running grep's regex in a worker thread costs per call, against matching on the calling
// thread, on a small tree (40 files of 200 lines, one batch). Build first, then run on plain Node:
//   npx -y pnpm@10 build && node packages/tools-fs/bench/grep.mjs
// Rounds alternate inline and worker so that machine load hits both alike. Prints medians of the
// whole call and of the matching step alone; asserts nothing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { Root } from '@rein/workspace'
import { Config, inlineMatcher, workerMatcher } from '../dist/src/index.js'
import { grepTool } from '../dist/src/tools/grep.js'

const FILES = 40
const LINES = 200
const ROUNDS = 4
const CALLS = 100

const dir = await mkdtemp(path.join(tmpdir(), 'rein-grep-bench-'))
for (let f = 0; f < FILES; f++) {
  await mkdir(path.join(dir, `d${f % 5}`), { recursive: true })
  const lines = Array.from({ length: LINES }, (_, i) => (i % 50 === 0 ? `// TODO item ${i}` : `const value${i} = compute(${i}, "${f}")`))
  await writeFile(path.join(dir, `d${f % 5}`, `f${f}.ts`), `${lines.join('\n')}\n`)
}

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Runs `calls` grep calls on a fresh kernel with `inner` as matcher; gives each call's and each match step's time. */
async function run(inner, calls) {
  const matchTimes = []
  const matcher = {
    async match(task, signal) {
      const start = process.hrtime.bigint()
      try {
        return await inner.match(task, signal)
      } finally {
        matchTimes.push(ms(start))
      }
    },
    dispose: () => inner.dispose(),
  }
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  ctx.tools.register(grepTool(Root.open(dir, 'bench'), Config({ root: dir }), matcher))
  const callTimes = []
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint()
    const result = await ctx.tools.execute({ id: `b${i}`, name: 'grep', arguments: { pattern: 'TODO' } })
    callTimes.push(ms(start))
    if (result.isError) throw new Error(result.error.message)
  }
  await matcher.dispose()
  await ctx.stop()
  return { callTimes, matchTimes }
}

try {
  const warm = { inline: { call: [], match: [] }, worker: { call: [], match: [] } }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, make] of [['inline', inlineMatcher], ['worker', workerMatcher]]) {
      const { callTimes, matchTimes } = await run(make(), CALLS + 10)
      warm[label].call.push(...callTimes.slice(10)) // the first calls warm up (and start the worker)
      warm[label].match.push(...matchTimes.slice(10))
    }
  }
  const cold = { call: [], match: [] }
  for (let i = 0; i < 15; i++) {
    const { callTimes, matchTimes } = await run(workerMatcher(), 1)
    cold.call.push(...callTimes)
    cold.match.push(...matchTimes)
  }
  const line = (label, t) => `${label.padEnd(28)} call ${median(t.call).toFixed(2)} ms, match step ${median(t.match).toFixed(2)} ms`
  console.log(`grep /TODO/ over ${FILES} files, ${FILES * LINES} lines (medians)`)
  console.log(line('inline', warm.inline))
  console.log(line('worker, warm', warm.worker))
  console.log(line('worker, fresh for the call', cold))
} finally {
  await rm(dir, { recursive: true, force: true })
}
