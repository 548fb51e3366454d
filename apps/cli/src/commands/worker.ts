/**
 * `rein worker`: this process takes agent runs from the queue in Redis and runs each with the
 * harness of rein.yaml on its session in PostgreSQL (`@rein/queue`), until stopped. The harness
 * is loaded once, at the start, so a bad config fails here, not in every run; each run gets a
 * new agent of it on its own session, and the runs share its plugins and tools (see
 * docs/scale-out.md, "One harness per worker"). Ctrl-C (or SIGTERM) stops taking runs and
 * waits for those in progress, then disposes the harness; a second one exits at once, and
 * another worker resumes them.
 */
import { resolve } from 'node:path'
import { stringOption, UsageError, type Command, type Parsed } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { queueModule } from '../queue-module.js'
import { reportWarnings } from '../failures.js'
import { exitNow, interrupts, println, type Io } from '../io.js'
import { postgresUrl } from './db.js'

export const worker: Command = {
  name: 'worker',
  summary: 'take agent runs from the Redis queue and run them (sessions in PostgreSQL)',
  usage: 'rein worker [-c rein.yaml] [--concurrency N] [--redis <url>] [--postgres <url>] [--queue <name>]',
  help: `
Runs the harness of the config file on runs taken from a queue in Redis, each on its session
in PostgreSQL, any number of workers on any number of machines at once. Runs are added with
rein submit. The harness is loaded once per worker: each run gets an agent of its own on its
session, and the runs share the harness's plugins and tools (a cache, for one). When a worker dies, each of its runs is taken over by another worker once its
lock has expired: the session goes on from where it stopped, a call whose result was stored is
never run again, and a call that was in flight is reported to the model as TOOL_OUTCOME_UNKNOWN.
A call that needs approval parks (unless agent.approvals in the file says ask): the run ends
awaiting approval, the worker takes other runs, and once rein approve has answered, any
worker continues the session.
Ctrl-C or SIGTERM stops taking runs and waits for those in progress; a second one exits now.

Options:
  -c, --config <file>       the harness file (default ./rein.yaml)
  --concurrency <n>         runs at once in this process (default 4, at most 10000)
  --redis <url>             the queue's Redis, redis://[:password@]host:port[/db]
                            (default: REIN_REDIS_URL)
  --postgres <url>          the sessions' PostgreSQL, postgres://user:password@host:port/db
                            (default: REIN_DATABASE_URL)
  --queue <name>            the queue (default runs)
  --lock-duration <ms>      how long a run's lock lasts unrenewed: how soon a dead worker's
                            runs can be taken over (default 30000; 100 to 2147483647)
  --stalled-interval <ms>   how often this worker looks for such runs (default 30000;
                            100 to 2147483647)`,
  options: {
    config: { type: 'string', short: 'c' },
    concurrency: { type: 'string' },
    redis: { type: 'string' },
    postgres: { type: 'string' },
    queue: { type: 'string' },
    'lock-duration': { type: 'string' },
    'stalled-interval': { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const redis = redisUrl(args, io, 'worker')
    const postgres = postgresUrl(args, io, 'worker')
    const [{ memorySession }, { loadHarness }, { createWorker, postgresTarget, postgresUrlProblem, redisTarget, WORKER_LIMITS }] =
      await Promise.all([import('@rein/agent'), import('@rein/loader'), queueModule()])
    const malformed = postgresUrlProblem(postgres)
    if (malformed !== undefined) {
      throw new UsageError(`rein worker: the PostgreSQL URL ${malformed} (${stringOption(args, 'postgres') !== undefined ? '--postgres' : 'REIN_DATABASE_URL'})`)
    }
    // The flags are checked before anything is loaded, against the queue's own bounds.
    const numbers = {
      concurrency: whole(args, 'concurrency', WORKER_LIMITS.concurrency),
      lockDurationMs: whole(args, 'lock-duration', WORKER_LIMITS.lockDurationMs),
      stalledIntervalMs: whole(args, 'stalled-interval', WORKER_LIMITS.stalledIntervalMs),
    }
    const configPath = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    // Runs get their sessions from PostgreSQL: the file's `session:` path is not opened.
    const harness = await loadHarness(configPath, { session: memorySession(), env: io.env })
    try {
      reportWarnings(harness.warnings, io, 'worker')
      harness.agentFor(memorySession()).dispose() // a missing provider fails now, not in every run
      const running = await createWorker({
        redis, postgres, queue: stringOption(args, 'queue'),
        harness,
        // Nobody answers at a worker's terminal: asks park unless the file says otherwise.
        approvals: harness.config.agent.approvals ?? 'park',
        ...numbers,
        log: (line) => println(io.stderr, `rein worker: ${line}`),
      })
      println(io.stderr, `rein worker: ${running.name} takes runs from queue "${running.queue}" at Redis ${redisTarget(redis)}; ` +
        `sessions in PostgreSQL at ${postgresTarget(postgres)}`)
      await stopRequested(io, () => println(io.stderr,
        `rein worker: stopping: no new runs; waiting for ${running.active} in progress (again to exit now: another worker resumes them)`))
      await running.close()
    } finally {
      await harness.dispose()
    }
    println(io.stderr, 'rein worker: stopped')
    return ExitCodes.INTERRUPTED
  },
}

/** The Redis URL from `--redis` or REIN_REDIS_URL; a usage error naming both when neither is set. */
export function redisUrl(args: Parsed, io: Io, command: string): string {
  const url = stringOption(args, 'redis') ?? io.env.REIN_REDIS_URL
  if (!url) throw new UsageError(`rein ${command}: no Redis to use: pass --redis redis://host:6379 or set REIN_REDIS_URL`)
  return url
}

/** A whole-number option from `min` to `max`, or undefined when not given; a usage error naming the flag otherwise. */
function whole(args: Parsed, name: string, { min, max }: { min: number, max: number }): number | undefined {
  const value = stringOption(args, name)
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value)) throw new UsageError(`rein worker: --${name} must be a whole number, not "${value}"`)
  const number = Number(value)
  if (number < min || number > max) throw new UsageError(`rein worker: --${name} must be from ${min} to ${max}, not ${value}`)
  return number
}

/** Resolves on the first Ctrl-C or SIGTERM (after `onFirst`); the second one exits now. */
function stopRequested(io: Io, onFirst: () => void): Promise<void> {
  return new Promise((done) => {
    let asked = false
    const stop = () => {
      if (asked) return exitNow(io, ExitCodes.INTERRUPTED)
      asked = true
      onFirst()
      done()
    }
    interrupts(io)(stop)
    process.on('SIGTERM', stop)
  })
}
