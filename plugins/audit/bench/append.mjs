#!/usr/bin/env node
// What the audit plugin costs per call (part of `pnpm bench`): the kernel pipeline with and
// without it, side by side in one process, best of 5 interleaved rounds, for calls run one at
// a time and for batches of 100 started together. Lines are written with one synchronous
// write per group (the lines appended until the microtask queue drains) on a held O_APPEND
// descriptor, and each result is held (`tools/hand-off`) until its line is written, so nothing
// is lost when the process dies after anyone saw a result. A lone call is a group of its own;
// a batch shares one write. The third subject's arguments name `basic.ts`, which the screen of
// the quick line (src/line.ts: a call nothing in which needs redacting or cutting is written
// field by field) cannot tell from `Basic <credentials>`, so each of its lines is built as a
// record, redacted, cut and stringified: the last two rows differ by what the quick line saves.
// Usage: node --expose-gc plugins/audit/bench/append.mjs   (build first: npx -y pnpm@10 build)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import * as audit from '@rein/plugin-audit'

const dir = mkdtempSync(join(tmpdir(), 'rein-audit-bench-'))
const file = join(dir, 'audit.jsonl')
async function harness(withAudit) {
  const ctx = new Context()
  ctx.plugin(kernel)
  if (withAudit) ctx.plugin(audit, { file })
  await ctx.start()
  ctx.tools.register(kernel.defineTool({ name: 'read', description: 'r', parameters: { type: 'object' }, execute: () => ({ ok: 1 }) }))
  return ctx
}
const CALLS = 20_000
const BATCH = 100
const call = (i, file = 'f') => ({ id: `c${i}`, name: 'read', arguments: `{"path":"src/${file}${i % 100}.ts","line":${i % 100}}` })
const sequential = async ({ ctx, file }) => {
  const execute = ctx.tools.execute
  const start = performance.now()
  for (let i = 0; i < CALLS; i++) await execute(call(i, file))
  return (performance.now() - start) * 1000 / CALLS
}
const batched = async ({ ctx, file }) => {
  const execute = ctx.tools.execute
  const start = performance.now()
  for (let i = 0; i < CALLS; i += BATCH) await Promise.all(Array.from({ length: BATCH }, (_, j) => execute(call(i + j, file))))
  return (performance.now() - start) * 1000 / CALLS
}
try {
  const subjects = [
    { name: 'pipeline, no audit', ctx: await harness(false) },
    { name: 'pipeline + audit', ctx: await harness(true) },
    { name: '+ audit, slow lines', ctx: await harness(true), file: 'basic' },
  ]
  for (const [label, round] of [['sequential calls', sequential], [`batches of ${BATCH}`, batched]]) {
    for (const s of subjects) { await round(s); s.best = Infinity }
    for (let r = 0; r < 5; r++) for (const s of subjects) { globalThis.gc?.(); s.best = Math.min(s.best, await round(s)) }
    console.log(`audit: best of 5 rounds x ${CALLS.toLocaleString('en')} ${label}`)
    for (const s of subjects) console.log(`  ${s.name.padEnd(22)} ${s.best.toFixed(2).padStart(6)} µs/call`)
    console.log(`  audit adds ${(subjects[1].best - subjects[0].best).toFixed(2)} µs/call; with slow lines ${(subjects[2].best - subjects[0].best).toFixed(2)}`)
  }
  console.log(`  lines written: ${readFileSync(file, 'utf8').split('\n').length - 1}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
