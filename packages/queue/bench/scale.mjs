// The full-size proof of @rein/queue, run by hand (the test suite runs small versions):
//   npx -y pnpm@10 build && node packages/queue/bench/scale.mjs        (SESSIONS=200 CONCURRENCY=4, the worker default)
// Starts a throwaway Redis (append-only) and PostgreSQL, then, with `rein worker` child
// processes running the fixture harness (5 ledger calls of 50 ms per session):
//   1. throughput over 1 worker process and over 3, and submit -> first tool call (p50/p99);
//   2. one of three workers killed with -9 mid-load, three times (a new one started each time);
//   3. Redis killed mid-load and restarted 3 s later (longer than the 2 s lock);
//   4. PostgreSQL stopped mid-load for 3 s, then every failed session submitted again.
// Each load ends with the exactly-once audit of test/audit.ts. Figures are printed as they come.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { startPostgres, startRedis } from '@rein/testing'
import { createQueueClient } from '../dist/src/index.js'
import { audit } from '../dist/test/audit.js'
import { startWorker, whyNoCli } from '../dist/test/fleet.js'

const SESSIONS = Number(process.env.SESSIONS ?? 200)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4)
const CALLS = 5
// THROUGHPUT_ONLY=1 skips the fault loads.
const FAULTS = process.env.THROUGHPUT_ONLY !== '1'
const LOCK = { lockDurationMs: 2000, stalledIntervalMs: 1000 }

const missing = whyNoCli()
if (missing) throw new Error(missing)
const [redis, postgres] = await Promise.all([startRedis({ appendOnly: true }), startPostgres()])
const admin = new pg.Pool({ connectionString: postgres.url, max: 2 })
admin.on('error', () => {})
await admin.query('CREATE TABLE IF NOT EXISTS rein_ledger (session_id text NOT NULL, call_id text NOT NULL, step int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())')
const line = (text) => console.log(text)
line(`${SESSIONS} sessions x ${CALLS} calls of 50 ms; ${CONCURRENCY} runs at once per worker process; lock ${LOCK.lockDurationMs} ms, stalled check ${LOCK.stalledIntervalMs} ms`)
line(`${cpus().length} cores; load average before: ${loadavg().map((n) => n.toFixed(1)).join(' ')}`)

try {
  const one = await load({ workers: 1 })
  line(`1 worker : ${report(one)}`)
  const three = await load({ workers: 3 })
  line(`3 workers: ${report(three)}`)
  line(`throughput ratio 3:1 = ${(three.perSecond / one.perSecond).toFixed(2)}; load average after: ${loadavg().map((n) => n.toFixed(1)).join(' ')}`)
  const idle = await idleLatency()
  line(`one run at a time on an idle fleet of 3: submit -> first tool call p50 ${idle.p50} ms, p99 ${idle.p99} ms (${idle.n} runs)`)
  if (FAULTS) {

    const kills = await load({ workers: 3, at: [0.25, 0.5, 0.75], fault: async (fleet, start) => {
      const victim = fleet.shift()
      await victim.crash()
      fleet.push(await start())
    } })
    line(`3 workers, one killed with -9 three times (a new one started each time): ${report(kills)}`)

    const redisDown = await load({ workers: 3, at: [0.4], fault: async () => {
      await redis.stop('kill')
      await sleep(3000)
      await redis.start()
    } })
    line(`3 workers, Redis killed and back after 3 s: ${report(redisDown)}`)

    const pgDown = await load({ workers: 3, at: [0.4], fault: async () => {
      await postgres.stop('fast')
      await sleep(3000)
      await postgres.start()
    }, allowErrors: true })
    line(`3 workers, PostgreSQL stopped for 3 s: ${report(pgDown)}`)
  }
} finally {
  await admin.end()
  await Promise.all([redis.close(), postgres.close()])
}

/**
 * One load of SESSIONS sessions over `workers` processes; `fault(fleet, start)` runs when the
 * given fractions of all calls have started. With `allowErrors`, failed sessions are submitted
 * again (the same task) once.
 */
async function load({ workers, at = [], fault, allowErrors = false }) {
  const queue = `bench-${randomUUID().slice(0, 8)}`
  const start = () => startWorker({ redis: redis.url, postgres: postgres.url, queue, concurrency: CONCURRENCY, ...LOCK })
  const fleet = await Promise.all(Array.from({ length: workers }, start))
  const client = await createQueueClient({ redis: redis.url, queue })
  const cpuBefore = fleet.map((w) => cpuMs(w.pid))
  const sessions = Array.from({ length: SESSIONS }, (_, i) => `bench-${queue}-${i}`)
  const firstCall = []
  let calls = 0
  let faults = Promise.resolve()
  const marks = at.map((f) => Math.round(f * SESSIONS * CALLS))
  const began = performance.now()
  const results = await Promise.all(sessions.map(async (session) => {
    const submitted = performance.now()
    let first
    const onProgress = (event) => {
      if (event.kind !== 'call-start') return
      if (first === undefined) firstCall.push((first = performance.now()) - submitted)
      if (marks.includes(++calls)) faults = faults.then(() => fault(fleet, start))
    }
    return (await client.submit({ session, task: `ledger:${session}`, onProgress })).result
  }))
  const seconds = (performance.now() - began) / 1000
  await faults
  const workerCpu = fault ? undefined : fleet.reduce((n, w, i) => n + cpuMs(w.pid) - cpuBefore[i], 0) / SESSIONS
  const failed = results.map((r, i) => [r, sessions[i]]).filter(([r]) => r.kind !== 'completed')
  const errors = [...new Set(failed.map(([r]) => `${r.kind}${r.code ? ` ${r.code}` : ''}`))]
  const sample = failed[0]?.[0].error
  let resubmitted = 0
  if (allowErrors) {
    await Promise.all(failed.map(async ([, session]) => {
      const { result } = await client.submit({ session, task: `ledger:${session}` })
      if (result.kind !== 'completed') throw new Error(`${session} did not complete after PostgreSQL came back: ${JSON.stringify(result)}`)
      resubmitted++
    }))
  } else if (failed.length > 0) {
    throw new Error(`${failed.length} sessions did not complete: ${JSON.stringify(failed.slice(0, 3))}`)
  }
  await client.close()
  await Promise.all(fleet.map((w) => w.stop()))
  const check = await audit(admin, sessions, CALLS)
  if (check.problems.length > 0) throw new Error(`exactly-once audit failed:\n${check.problems.join('\n')}`)
  firstCall.sort((a, b) => a - b)
  return {
    seconds, perSecond: SESSIONS / seconds, workerCpu, p50: pct(firstCall, 0.5), p99: pct(firstCall, 0.99),
    resumed: results.filter((r) => r.attempts > 1).length, audit: check, errors, sample, resubmitted,
  }
}

/** Runs sessions one after another on an idle fleet of 3: the queue's own latency, without waiting in line. */
async function idleLatency() {
  const queue = `bench-${randomUUID().slice(0, 8)}`
  const fleet = await Promise.all([1, 2, 3].map(() => startWorker({ redis: redis.url, postgres: postgres.url, queue, concurrency: CONCURRENCY, ...LOCK })))
  const client = await createQueueClient({ redis: redis.url, queue })
  const latencies = []
  for (let i = 0; i < 50; i++) {
    const session = `idle-${queue}-${i}`
    const submitted = performance.now()
    let first
    await client.submit({ session, task: `ledger:${session}`, onProgress: (e) => { if (e.kind === 'call-start' && first === undefined) first = performance.now() } })
    latencies.push(first - submitted)
  }
  await client.close()
  await Promise.all(fleet.map((w) => w.stop()))
  latencies.sort((a, b) => a - b)
  return { n: latencies.length, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) }
}

/** CPU time (user + system) of process `pid` so far, in ms; NaN where /proc cannot say. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

function pct(sorted, q) {
  return sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))])
}

function report(r) {
  const a = r.audit
  return [
    `${r.seconds.toFixed(2)} s, ${r.perSecond.toFixed(1)} sessions/s; submit -> first tool call p50 ${r.p50} ms, p99 ${r.p99} ms`,
    ...(r.workerCpu === undefined ? [] : [`worker CPU ${r.workerCpu.toFixed(1)} ms per run`]),
    `audit ok: ${a.committed} results committed once each, ${a.ledgerRows} bodies run, ${a.outcomeUnknown} TOOL_OUTCOME_UNKNOWN, ${a.notStarted} TOOL_NOT_STARTED`,
    ...(r.resumed ? [`${r.resumed} runs finished by a later attempt`] : []),
    ...(r.errors.length ? [`ended ${r.errors.join(', ')} (e.g. "${r.sample}"); ${r.resubmitted} resubmitted and completed`] : []),
  ].join('; ')
}
