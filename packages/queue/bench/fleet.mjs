// The fleet line of the round-3 performance contract (DESIGN.md §7.8), in one run (`pnpm bench`,
// or `npx -y pnpm@10 build && node --expose-gc packages/queue/bench/fleet.mjs`). Starts a throwaway Redis and
// PostgreSQL and forks `rein` workers (bench/fleet/worker.mjs: the bench harness, parking by default):
//   1. parked sessions: one worker's heap after full GCs, before and after PARKED runs
//      have parked (each asks one `risky` call the policy asks a person about) -> bytes per parked
//      session, of data (a heap snapshot's objects other than code: fleet/heap-split.mjs) and of heap;
//   2. approval -> the continuation's first tool body: `answerApproval` + `pendingApprovals`, the
//      store closed, `submit({ continue: true, wait: false })` (what `rein approve --redis` does, on
//      a client already connected), to the body's start in a worker; APPROVALS one at a time on an
//      idle fleet of 3 -> p50 / p99;
//   3. throughput: RUNS runs of CALLS calls of MS ms (bodies that wait) over 1 worker and over 3,
//      4 runs at once each, with an instant model -> runs/s, the ratio, CPU ms per run of the
//      workers, Redis, PostgreSQL and the submitter (/proc), round trips per run; then MODEL_RUNS
//      runs whose model steps take MODEL_MS each (see MODEL_MS) -> runs/s and the ratio.
//      BENCH_CPU_PROF=<dir>: the workers write V8 CPU profiles there.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { answerApproval, pendingApprovals } from '@rein/agent'
import { startPostgres, startRedis, whyNoPostgres, whyNoRedis } from '@rein/testing'
import { createQueueClient, postgresSession } from '../dist/src/index.js'
import { cpuOf, serverPids } from './fleet/cpu.mjs'

const PARKED = Number(process.env.PARKED ?? 1000)
const APPROVALS = Math.min(PARKED, Number(process.env.APPROVALS ?? 200))
const RUNS = Number(process.env.RUNS ?? 240)
// The model's latency in the second throughput part (0: none). A real model step takes from
// about 0.5 s to many seconds, during which a worker waits and spends no CPU; the instant
// scripted model of the first part makes each run all queue, store and agent work, so on a
// machine of 2 cores 3 workers compete for CPU that 1 worker alone leaves mostly free. 200 ms
// is still well below a real model's step (a low bound, not a typical case).
const MODEL_MS = Number(process.env.MODEL_MS ?? 200)
const MODEL_RUNS = Number(process.env.MODEL_RUNS ?? 96)
const CALLS = 5
const MS = 50
const WORKER = fileURLToPath(new URL('./fleet/worker.mjs', import.meta.url))

const missing = [whyNoRedis(), whyNoPostgres()].filter((why) => why !== undefined)
if (missing.length > 0) {
  console.log(`fleet bench: skipped, ${missing.join('; ')}`)
  process.exit(0)
}
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ')
console.log(`\nfleet (@rein/queue, forked workers): ${cpus().length} cores, load average ${load()}`)
const [redis, postgres] = await Promise.all([startRedis(), startPostgres()])
const servers = serverPids(redis.port, postgres.port)
// The approver's connections, kept between approvals as a service answering them would keep them
// (a `rein approve` process opens its own: one connection more per approval).
const approverPool = new pg.Pool({ connectionString: postgres.url, max: 2 })
const started = performance.now()
try {
  const parked = await parkedMemory()
  console.log(`  parked sessions : one worker's heap ${mb(parked.before.heapUsed)} -> ${mb(parked.after.heapUsed)} MB (compiled code ${mb(parked.before.code)} -> ${mb(parked.after.code)}) ` +
    `after ${PARKED} runs parked: ${perSession(parked, 'snapshotData')} bytes of data per parked session ` +
    `in a heap snapshot (objects other than code); ${perSession(parked, 'data')} heap bytes outside the code space (bytecode included), ` +
    `${perSession(parked, 'heapUsed')} with it; target ~0`)
  console.log(`  approval -> continuation's first tool body, idle fleet of 3, ${parked.latency.n} one at a time: ` +
    `p50 ${parked.latency.p50.toFixed(1)} ms, p99 ${parked.latency.p99.toFixed(1)} ms (p50 of the approver's parts: ${parked.latency.parts} ms; ` +
    `from the continuation queued to its body p50 / p99 ${parked.latency.queued} ms: to a worker taking it ${parked.latency.pickup}, ` +
    `from there to the body ${parked.latency.run}); target p99 <= 100 ms`)
  const one = await throughput(1)
  const three = await throughput(3)
  console.log(`  throughput, ${RUNS} runs x ${CALLS} calls of ${MS} ms, model instant, 4 at once per worker: 1 worker ${one.perSecond.toFixed(1)} runs/s (machine ${one.busy}% busy), ` +
    `3 workers ${three.perSecond.toFixed(1)} runs/s (${three.busy}% busy): ${(three.perSecond / one.perSecond).toFixed(2)} x; target >= 2.8 x`)
  console.log(`  per run (${CALLS} calls, ${CALLS + 1} model steps): CPU ms 1 worker ${cpuLine(one.perRun)}; 3 workers ${cpuLine(three.perRun)}; round trips from the workers: ${three.trips}`)
  if (MODEL_MS > 0) {
    const slowOne = await throughput(1, MODEL_RUNS, MODEL_MS)
    const slowThree = await throughput(3, MODEL_RUNS, MODEL_MS)
    console.log(`  throughput, ${MODEL_RUNS} runs as above with each model step taking ${MODEL_MS} ms: 1 worker ${slowOne.perSecond.toFixed(2)} runs/s (machine ${slowOne.busy}% busy), ` +
      `3 workers ${slowThree.perSecond.toFixed(2)} runs/s (${slowThree.busy}% busy): ${(slowThree.perSecond / slowOne.perSecond).toFixed(2)} x; target >= 2.8 x`)
  }
  console.log(`  (${((performance.now() - started) / 1000).toFixed(0)} s; load average after ${load()})`)
} finally {
  await approverPool.end()
  await Promise.all([redis.close(), postgres.close()])
}

/** Parts 1 and 2: one worker parks PARKED runs (measured before and after), then 3 workers continue APPROVALS of them. */
async function parkedMemory() {
  const queue = `fleet-${randomUUID().slice(0, 8)}`
  const first = await startWorker(queue, 8)
  const client = await createQueueClient({ redis: redis.url, queue })
  const fleet = [first]
  try {
    // Warm up: runs parked and continued, so the worker's code, pools and connections are in place.
    const warm = await parkAll(client, 'warm', 40)
    await Promise.all(warm.map(async ({ session, approval }) => {
      await approve(session, approval)
      await client.submit({ session, continue: true })
    }))
    const before = await first.measure()
    const sessions = await parkAll(client, 'parked', PARKED)
    const after = await first.measure()
    fleet.push(await startWorker(queue, 4), await startWorker(queue, 4))
    const latency = await approvals(client, fleet, sessions.slice(0, APPROVALS))
    return { before, after, latency }
  } finally {
    await client.close()
    await Promise.all(fleet.map((w) => w.stop()))
  }
}

/** Submits `count` runs that park; resolves with each session and its request id. */
async function parkAll(client, label, count) {
  const sessions = Array.from({ length: count }, (_, i) => `${label}-${i}-${randomUUID().slice(0, 8)}`)
  return Promise.all(sessions.map(async (session) => {
    const { result, jobId } = await client.submit({ session, task: `park:${session}` })
    if (!result) throw new Error(`${session}: submit resolved job ${jobId} with no result`)
    if (result.kind !== 'awaiting-approval') throw new Error(`${session} ended ${result.kind}, not awaiting-approval: ${result.error ?? result.text}`)
    return { session, approval: result.approvals[0].id }
  }))
}

/** Writes an allow-once answer as `rein approve` does: answer, what is left, the store let go. */
async function approve(session, id, steps) {
  const t0 = now()
  const store = postgresSession({ pool: approverPool, id: session })
  try {
    await answerApproval(store, id, 'allow-once', { by: 'bench' })
    const t1 = now()
    const left = (await pendingApprovals(store)).filter((request) => !request.expired)
    if (left.length > 0) throw new Error(`${session}: ${left.length} requests still wait`)
    steps?.answer.push(t1 - t0)
    steps?.pending.push(now() - t1)
  } finally {
    const t2 = now()
    await store.close()
    steps?.close.push(now() - t2)
  }
}

/** One approval at a time: answer + queue the continuation, timed to the first body's start in any worker. */
async function approvals(client, fleet, sessions) {
  const total = []
  const steps = { answer: [], pending: [], close: [], submit: [] }
  const queued = []
  const pickup = []
  const run = []
  for (const { session, approval } of sessions) {
    const body = Promise.race(fleet.map((w) => w.body(session)))
    const t0 = now()
    await approve(session, approval, steps)
    const t1 = now()
    await client.submit({ session, continue: true, wait: false })
    steps.submit.push(now() - t1)
    const at = await body
    total.push(at - t0)
    queued.push(at - t1)
    // The last take of the session in any worker: the continuation's (the parked run's was earlier).
    const taken = Math.max(...fleet.map((w) => w.took(session) ?? -Infinity))
    if (taken > t1) {
      pickup.push(taken - t1)
      run.push(at - taken)
    }
    await Promise.all(fleet.map((w) => w.forget(session)))
  }
  total.sort((a, b) => a - b)
  const median = (values) => pct(values.sort((a, b) => a - b), 0.5).toFixed(1)
  const parts = Object.entries(steps).map(([name, values]) => `${name} ${median(values)}`).join(', ')
  queued.sort((a, b) => a - b)
  const both = (values) => `${median(values)} / ${pct(values, 0.99).toFixed(1)}`
  return { n: total.length, p50: pct(total, 0.5), p99: pct(total, 0.99), parts, queued: both(queued), pickup: both(pickup), run: both(run) }
}

/**
 * Part 3: `runs` runs over `workers` workers of 4 at once; runs per second from the first submit
 * to the last outcome, CPU and round trips per run. `modelMs`: how long each model step of a run takes.
 */
async function throughput(workers, runs = RUNS, modelMs = 0) {
  const queue = `fleet-${randomUUID().slice(0, 8)}`
  const fleet = await Promise.all(Array.from({ length: workers }, () => startWorker(queue, 4)))
  const client = await createQueueClient({ redis: redis.url, queue })
  try {
    const sessions = Array.from({ length: runs }, (_, i) => `run-${i}-${randomUUID().slice(0, 8)}`)
    const parts = { ...servers, workers: fleet.map((w) => w.pid) }
    const trips = await tripsOf(fleet)
    const cpu = machineCpu()
    const used = cpuOf(parts)
    const began = performance.now()
    const results = await Promise.all(sessions.map((session) => client.submit({ session, task: `work:${CALLS}:${MS}:${modelMs}:${session}` })))
    const seconds = (performance.now() - began) / 1000
    const failed = results.filter((r) => r.result.kind !== 'completed')
    if (failed.length > 0) throw new Error(`${failed.length} runs did not complete: ${JSON.stringify(failed[0].result)}`)
    const after = machineCpu()
    const usedAfter = cpuOf(parts)
    const tripsAfter = await tripsOf(fleet)
    const perRun = Object.fromEntries(Object.keys(used).map((key) => [key, (usedAfter[key] - used[key]) / runs]))
    return {
      perSecond: runs / seconds, busy: Math.round(100 * (1 - (after.idle - cpu.idle) / (after.total - cpu.total))), perRun,
      trips: `${((tripsAfter.postgres - trips.postgres) / runs).toFixed(1)} PostgreSQL statements, ${((tripsAfter.redis - trips.redis) / runs).toFixed(1)} Redis commands`,
    }
  } finally {
    await client.close()
    await Promise.all(fleet.map((w) => w.stop()))
  }
}

/** The round trips the workers of `fleet` started so far, summed. */
async function tripsOf(fleet) {
  const each = await Promise.all(fleet.map((w) => w.trips()))
  return each.reduce((sum, t) => ({ postgres: sum.postgres + t.postgres, redis: sum.redis + t.redis }), { postgres: 0, redis: 0 })
}

/** Forks a bench worker on `queue`; resolves once it takes runs. */
function startWorker(queue, concurrency) {
  const child = fork(WORKER, [], {
    // BENCH_CPU_PROF=<dir>: each worker writes a V8 CPU profile there when it exits.
    execArgv: ['--expose-gc', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, BENCH_REDIS: redis.url, BENCH_POSTGRES: postgres.url, BENCH_QUEUE: queue, BENCH_CONCURRENCY: String(concurrency) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  const bodies = new Map()
  const waiting = new Map()
  const took = new Map()
  let measured
  let counted
  child.on('message', (message) => {
    if (message.memory) measured?.(message.memory)
    if (message.trips) counted?.(message.trips)
    if (message.took !== undefined) took.set(message.took, message.at)
    if (message.body === undefined) return
    if (!bodies.has(message.body)) bodies.set(message.body, message.at)
    waiting.get(message.body)?.(message.at)
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker exited (code ${code}) before it started`)))
    child.once('message', (message) => {
      if (!message.ready) return reject(new Error(`bench worker said ${JSON.stringify(message)} first`))
      resolve({
        pid: child.pid,
        trips: () => new Promise((done) => { counted = done; child.send('trips') }),
        measure: () => new Promise((done) => { measured = done; child.send('measure') }),
        /** When a body of `session` first started in this worker (ms since the epoch); never resolves if it does not. */
        body: (session) => new Promise((done) => {
          if (bodies.has(session)) return done(bodies.get(session))
          waiting.set(session, done)
        }),
        /** When this worker last took a job of `session` (ms since the epoch), if it did. */
        took: (session) => took.get(session),
        forget: (session) => { bodies.delete(session); waiting.delete(session); took.delete(session) },
        stop: () => { child.send('stop'); return exited },
      })
    })
  })
}

/** The machine's CPU time so far, all cores (from /proc/stat; zeros where there is none). */
function machineCpu() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) }
  } catch {
    return { idle: 0, total: 0 }
  }
}

/** Milliseconds since the epoch with sub-ms precision, as the workers' bodies report it. */
function now() {
  return performance.timeOrigin + performance.now()
}

function pct(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

/** `worker 12.3 (4.0 in the kernel) + redis 1.2 + postgres 4.5 + submitter 0.8 = 18.8`. */
function cpuLine({ workers, workersKernel, redis, postgres, bench }) {
  const total = workers + redis + postgres + bench
  return `worker ${workers.toFixed(1)} (${workersKernel.toFixed(1)} in the kernel) + redis ${redis.toFixed(1)} + postgres ${postgres.toFixed(1)} + submitter ${bench.toFixed(1)} = ${total.toFixed(1)}`
}

function mb(bytes) {
  return (bytes / 1048576).toFixed(1)
}

function perSession({ before, after }, key) {
  return Math.round((after[key] - before[key]) / PARKED)
}
