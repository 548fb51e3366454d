// The effect-count benchmark (issue 22, DESIGN.md §7.3), from the repository root after
// `npx -y pnpm@10 build`: `node bench/effects/effects.mjs [--seed N] [--kills 20]` (also run by `pnpm bench`).
//
// One workload, four rows, in one run: a scripted model asks 100 tool calls, one per step, and
// each call's body appends one line to a ledger file (synced) — the side effect. Each row's
// process is SIGKILLed at the same 20 seeded points (lib/plan.mjs) and started again after
// each kill; a last life runs to the end. What survives a kill is each framework's own:
//   rein            a JSONL session file; the next life continues it (`agent.run()`), with and
//                   without a `reconcile` on the tool;
//   LangGraph       its PostgreSQL checkpointer (a throwaway server from the Debian binaries);
//                   the next life resumes the thread from its last checkpoint;
//   AI SDK          nothing; the next life starts the task again.
// It prints, per row: kills, the calls the model asked (distinct items), the effects in the
// ledger, duplicates (an item's effect twice or more), the unknowns rein reported (whether
// the effect is in the ledger), and losses (an asked item with no effect that nobody reported).
// rein's targets are checked: 0 duplicates and 0 losses, with reconcile 0 unknowns too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres'
import { startPostgres, whyNoPostgres } from '@rein/testing'
import { countRow } from './lib/count.mjs'
import { runLife } from './lib/life.mjs'
import { killPlan } from './lib/plan.mjs'
import { reconcileSupported } from './lib/reconcile-probe.mjs'
import { CALLS, filesOf } from './lib/workload.mjs'

const here = dirname(fileURLToPath(import.meta.url))
/** `--seed N` and `--kills N`, whole numbers below 2^32; anything else ends the run with a message naming it. */
function options(argv) {
  const found = {}
  for (let i = 0; i < argv.length; i += 2) {
    const [name, text] = [argv[i], argv[i + 1]]
    const value = Number(text)
    const problem = !['--seed', '--kills'].includes(name) ? `unknown option "${name}" (the options are --seed N and --kills N)`
      : !/^\d+$/.test(text ?? '') || value > 0xffffffff ? `${name} takes a whole number from 0 to 4294967295 (got "${text ?? ''}")`
        : undefined
    if (problem) {
      console.error(`bench/effects: ${problem}`)
      process.exit(2)
    }
    found[name.slice(2)] = value
  }
  return found
}
const { seed = Math.floor(Math.random() * 2 ** 31), kills = 20 } = options(process.argv.slice(2))
const plan = killPlan(seed, kills)
const versionOf = (name) => JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version

console.log(`effect count: ${CALLS} tool calls, one ledger line each, SIGKILL at ${kills} seeded points then a last life to the end`)
console.log(`  seed ${seed} (repeat with: node bench/effects/effects.mjs --seed ${seed})`)
console.log(`  kill points (after the n-th body of a life + ms): ${plan.map((p) => `${p.after}+${p.delayMs}`).join(' ')}`)

const root = mkdtempSync(join(tmpdir(), 'rein-bench-effects-'))
const postgresMissing = whyNoPostgres()
const postgres = postgresMissing ? undefined : await startPostgres()
const rows = []
let wall = 0
try {
  const hasReconcile = await reconcileSupported()
  if (postgres) {
    const saver = PostgresSaver.fromConnString(postgres.url)
    await saver.setup()
    await saver.end()
  }
  const subjects = [
    { name: 'rein, JSONL session, reconcile', script: 'rein.mjs', extra: ['--reconcile'], rein: true, reconcile: true, skip: hasReconcile ? undefined : 'not available in this build (defineTool ignores reconcile)' },
    { name: 'rein, JSONL session, no reconcile', script: 'rein.mjs', extra: [], rein: true },
    { name: `LangGraph ${versionOf('@langchain/langgraph')}, PostgresSaver (sync)`, script: 'langgraph.mjs', extra: postgres ? [postgres.url] : [], skip: postgresMissing },
    { name: `AI SDK ${versionOf('ai')} generateText, no store`, script: 'ai-sdk.mjs', extra: [] },
  ]
  // The rows run side by side (each a chain of lives; they share nothing but the machine), so
  // the whole run takes about as long as its slowest row.
  const started = performance.now()
  const settled = await Promise.allSettled(subjects.map(async (subject) => {
    if (subject.skip) return { subject, skipped: subject.skip }
    const dir = mkdtempSync(join(root, `${subject.script.replace('.mjs', '')}-`))
    const args = [join(here, 'subjects', subject.script), dir, ...subject.extra]
    let killed = 0
    for (const point of [...plan, undefined]) {
      const life = await runLife(args, point)
      if (!life.killed) break
      killed++
    }
    return { subject, killed, ...(await countRow(filesOf(dir))) }
  }))
  // Every row ends before a failure is thrown, so no child outlives the run.
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason
    rows.push(result.value)
  }
  wall = (performance.now() - started) / 1000
} finally {
  await postgres?.close()
  rmSync(root, { recursive: true, force: true })
}

const cells = (row) => {
  const unknown = !row.unknown ? 'none kept' : row.unknown.total === 0 ? '0' : `${row.unknown.total} (${row.unknown.done} done, ${row.unknown.notDone} not)`
  const reconciled = row.subject.reconcile ? `${row.reconciled} ran, ${row.rerun} re-run` : '-'
  return [row.subject.name, row.killed, row.asked, row.asks, row.effects, row.duplicates, row.losses, unknown, reconciled]
}
const header = ['subject', 'kills', 'calls asked', 'asks', 'effects in ledger', 'duplicates', 'losses', 'unknown reported', 'reconciled']
const table = [header, ...rows.filter((row) => !row.skipped).map(cells)]
const widths = header.map((_, i) => Math.max(...table.map((r) => String(r[i]).length)))
for (const r of table) console.log(`  ${r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')}`)
for (const row of rows.filter((r) => r.skipped)) console.log(`  ${row.subject.name}: ${row.skipped}`)
console.log(`  ${wall.toFixed(0)} s, the ${table.length - 1} rows side by side; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`)
console.log("  (calls asked: distinct calls the model asked; asks: every time it asked one, across lives. duplicates: a call's")
console.log("  effect beyond its first. losses: a call asked whose effect is missing and that nobody reported. unknown: rein")
console.log("  reported it may or may not have run; done/not: whether it had. reconciled: reconcile found the effect / ran it now.)")

// rein's targets (issue 22): with reconcile no duplicate, no loss, nothing left unknown;
// without it no duplicate and every missing effect reported.
const misses = []
for (const row of rows.filter((r) => r.subject.rein && !r.skipped)) {
  if (row.duplicates > 0) misses.push(`${row.subject.name}: ${row.duplicates} duplicates`)
  if (row.losses > 0) misses.push(`${row.subject.name}: ${row.losses} losses`)
  if (row.subject.reconcile && row.unknown.total > 0) misses.push(`${row.subject.name}: ${row.unknown.total} left unknown`)
  if (row.distinctEffects + row.unknown.notDone !== CALLS) misses.push(`${row.subject.name}: ${row.distinctEffects} items done and ${row.unknown.notDone} reported not done, of ${CALLS}`)
}
if (misses.length) {
  console.log(`  rein missed its targets: ${misses.join('; ')}`)
  process.exit(1)
}
console.log('  rein met its targets: 0 duplicates, 0 losses' + (rows[0].skipped ? '' : ', and with reconcile nothing left unknown'))
