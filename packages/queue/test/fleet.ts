/**
 * Worker processes for the fleet tests and the bench: each is a real `rein worker` child
 * process (the built CLI) running the fixture harness, so that `kill -9` is a real crash.
 * Shared by `test/*.test.ts` (from source) and `bench/scale.mjs` (from `dist/test`), so paths
 * are found from the repository root, wherever this file runs from.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root: the nearest folder up from here with pnpm-workspace.yaml. */
export const ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error(`no pnpm-workspace.yaml above ${fileURLToPath(import.meta.url)}`)
    dir = up
  }
  return dir
})()

/** The fixture harness: the stand-in model, the timeout policy and the ledger tool. */
export const FIXTURE = join(ROOT, 'packages', 'queue', 'test', 'fixtures', 'rein.yaml')
/** The built `rein` command. */
export const BIN = join(ROOT, 'apps', 'cli', 'bin', 'rein.mjs')

/** Says how to build when the CLI was not built (`bin/rein.mjs` imports `dist`). */
export function whyNoCli(): string | undefined {
  return existsSync(join(ROOT, 'apps', 'cli', 'dist', 'src', 'main.js')) ? undefined : 'the CLI is not built (run npx -y pnpm@10 build first)'
}

export interface FleetOptions {
  redis: string
  postgres: string
  queue: string
  concurrency: number
  lockDurationMs: number
  stalledIntervalMs: number
  /** The harness file (default the fixture harness). */
  config?: string
}

/** A running `rein worker` process. */
export interface WorkerProcess {
  /** Its worker name (`host:pid`), as progress events show it. */
  name: string
  pid: number
  /** Everything it wrote to stderr so far. */
  log(): string
  /** `kill -9`: no cleanup, its runs' locks left to expire. */
  crash(): Promise<void>
  /** SIGTERM, and waits for it to exit (it finishes its runs first). */
  stop(): Promise<void>
}

/** Starts `rein worker` and resolves once it takes runs. */
export function startWorker(options: FleetOptions): Promise<WorkerProcess> {
  const args = [BIN, 'worker', '-c', options.config ?? FIXTURE, '--queue', options.queue, '--concurrency', String(options.concurrency),
    '--lock-duration', String(options.lockDurationMs), '--stalled-interval', String(options.stalledIntervalMs)]
  const child = spawn(process.execPath, args, {
    env: { ...process.env, REIN_REDIS_URL: options.redis, REIN_DATABASE_URL: options.postgres, REIN_LEDGER_URL: options.postgres },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`rein worker did not start within 30 s:\n${log}`)), 30_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    const early = (code: number | null, signal: string | null) =>
      fail(new Error(`rein worker exited (${signal ?? `code ${code}`}) before it started:\n${log}`))
    child.once('exit', early)
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk
      const ready = /rein worker: (\S+) takes runs from queue/.exec(log)
      if (!ready) return
      clearTimeout(timer)
      child.off('exit', early)
      resolve(handle(child, ready[1], () => log, exited))
    })
  })
}

function handle(child: ChildProcess, name: string, log: () => string, exited: Promise<void>): WorkerProcess {
  return {
    name,
    pid: child.pid!,
    log,
    async crash() {
      child.kill('SIGKILL')
      await exited
    },
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
