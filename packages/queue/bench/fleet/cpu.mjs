/**
 * CPU time of the processes a fleet bench run involves, read from /proc (Linux; zeros elsewhere):
 * the bench's workers (by pid), its Redis (the `redis-server` on its port) and its PostgreSQL
 * (the postmaster on its port, with every backend: the live ones' time, and the ended ones' that
 * the postmaster collected). `cpuOf(parts)` reads each part's ms so far; differences of two reads
 * over a phase, divided by the runs of the phase, are its CPU per run.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'

let ticks
function msPerTick() {
  try {
    ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    ticks = 100
  }
  return 1000 / ticks
}

/** `/proc/<pid>/stat`'s fields after the command name: [state, ppid, ...] (`utime` is at 11, `stime` 12, `cutime` 13, `cstime` 14). */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
  } catch {
    return ''
  }
}

function pids() {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number)
  } catch {
    return []
  }
}

/** The pids of the Redis and the PostgreSQL postmaster listening on these ports. */
export function serverPids(redisPort, postgresPort) {
  let redis
  let postgres
  for (const pid of pids()) {
    const line = cmdline(pid)
    if (line.includes('redis-server') && new RegExp(`:${redisPort}( |$)`).test(line)) redis = pid
    if (/(^|\/)postgres /.test(line) && new RegExp(`-p ${postgresPort}( |$)`).test(line)) postgres = pid
  }
  return { redis, postgres }
}

/** ms of CPU so far of one process (`withChildren`: and of its ended children it collected; `kernel`: only the time in the kernel). */
function processMs(pid, withChildren = false, kernel = false) {
  const fields = pid === undefined ? undefined : stat(pid)
  if (!fields) return 0
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number)
  return ((kernel ? 0 : utime) + stime + (withChildren ? (kernel ? 0 : cutime) + cstime : 0)) * msPerTick()
}

/** ms of CPU so far of the postmaster `pid` and its backends. */
function postgresMs(pid) {
  if (pid === undefined) return 0
  let ms = processMs(pid, true)
  for (const child of pids()) if (Number(stat(child)?.[1]) === pid) ms += processMs(child)
  return ms
}

/** ms of CPU so far: { workers, workersKernel (of it, in the kernel), redis, postgres, bench } (`workers`: the pids of the bench's workers). */
export function cpuOf({ workers, redis, postgres }) {
  const { user, system } = process.cpuUsage()
  return {
    workers: workers.reduce((ms, pid) => ms + processMs(pid), 0),
    workersKernel: workers.reduce((ms, pid) => ms + processMs(pid, false, true), 0),
    redis: processMs(redis),
    postgres: postgresMs(postgres),
    bench: (user + system) / 1000,
  }
}
