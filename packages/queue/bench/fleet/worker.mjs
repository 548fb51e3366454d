/**
 * One worker process of the fleet bench (`bench/fleet.mjs` forks it with `--expose-gc` and an
 * IPC channel): loads `fleet.yaml` once, runs `createWorker` on it (approvals park, the
 * default), says `{ ready, name }` and, for each job it takes, `{ took: session, at }`. It
 * answers `measure` with its memory after full GCs (and a heap snapshot's split of it into code
 * and data: `heap-split.mjs`), `trips` with the PostgreSQL statements and
 * Redis commands it sent so far, and `stop` by closing (runs in progress finish) and exiting.
 * Servers and queue come from the environment: BENCH_REDIS, BENCH_POSTGRES, BENCH_QUEUE,
 * BENCH_CONCURRENCY.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8'
import pg from 'pg'
import Redis from 'ioredis'
import { loadHarness } from '@rein/loader'
import { createWorker } from '../../dist/src/index.js'
import { heapSplit } from './heap-split.mjs'

const env = process.env

// Round trips this process started, for the bench's count per run: PostgreSQL statements, Redis commands.
const trips = { postgres: 0, redis: 0 }
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (...args) { trips.postgres++; return query.apply(this, args) }
const sendCommand = Redis.prototype.sendCommand
Redis.prototype.sendCommand = function (...args) { trips.redis++; return sendCommand.apply(this, args) }
const harness = await loadHarness(fileURLToPath(new URL('./fleet.yaml', import.meta.url)))
const worker = await createWorker({
  redis: env.BENCH_REDIS, postgres: env.BENCH_POSTGRES, queue: env.BENCH_QUEUE, harness,
  concurrency: Number(env.BENCH_CONCURRENCY ?? 4),
  // The moment this worker took a job (its first log line), for the bench's split of the pickup.
  log: (line) => {
    const took = /^\S+ session "(.*)": attempt \d+ started$/.exec(line)
    if (took) process.send({ took: JSON.parse(`"${took[1]}"`), at: performance.timeOrigin + performance.now() })
  },
})

let dumps = 0
process.on('message', async (message) => {
  if (message === 'measure') {
    // Settle what finished runs left scheduled (timers, idle sockets), then collect until stable.
    await sleep(300)
    for (let i = 0; i < 4; i++) {
      globalThis.gc()
      await sleep(20)
    }
    const { heapUsed } = process.memoryUsage()
    // Compiled code grows as the run path gets optimized, whatever the number of sessions; the rest is data.
    const code = getHeapSpaceStatistics().filter((space) => /code/.test(space.space_name)).reduce((n, space) => n + space.space_used_size, 0)
    // The code space leaves bytecode out; a heap snapshot tells every code object from data.
    // BENCH_HEAPDUMP=<prefix>: the snapshot is kept there, to see what a parked session leaves.
    const folder = env.BENCH_HEAPDUMP ? undefined : mkdtempSync(join(tmpdir(), 'rein-fleet-heap-'))
    const file = writeHeapSnapshot(folder ? join(folder, 'worker.heapsnapshot') : `${env.BENCH_HEAPDUMP}-${process.pid}-${++dumps}.heapsnapshot`)
    const snapshot = heapSplit(file)
    if (folder) rmSync(folder, { recursive: true, force: true })
    process.send({ memory: { heapUsed, code, data: heapUsed - code, snapshotData: snapshot.data } })
  } else if (message === 'trips') {
    process.send({ trips })
  } else if (message === 'stop') {
    await worker.close()
    await harness.dispose()
    process.disconnect()
  }
})
process.send({ ready: true, name: worker.name })
