/**
 * A throwaway Redis server for tests, from the machine's own `redis-server` (Debian's
 * `/usr/bin/redis-server`, or on PATH): listening only on a free 127.0.0.1 port, with a
 * password, its files in a temporary folder, and no snapshots (`--save ''`). With
 * `appendOnly` every write is in the append-only file before it is acknowledged, so the
 * server keeps its data across `stop('kill')` and `start()`. `close()` stops it and deletes
 * the folder; a test process that exits without closing still stops it. Where the binary is
 * missing, `whyNoRedis()` says so (and, in CI, throws).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort, lastLines, missingOutsideCi } from './local-server.js'

const INSTALL = 'apt-get install -y redis-server'
const READY_TIMEOUT_MS = 20_000

/** A running test server. */
export interface RedisServer {
  readonly host: '127.0.0.1'
  readonly port: number
  readonly password: string
  /** `redis://:<password>@127.0.0.1:<port>/0`, the password URL-encoded. */
  readonly url: string
  /** How long `startRedis` took, in ms (spawned and answering PING). */
  readonly startupMs: number
  /**
   * Stops the server: `graceful` (the default) with SHUTDOWN, `kill` with SIGKILL, like a
   * crash. Without `appendOnly` its data is gone either way.
   */
  stop(mode?: 'graceful' | 'kill'): Promise<void>
  /** Starts it again after `stop`, on the same port and folder (and append-only file). */
  start(): Promise<void>
  /** Stops it (if running) and deletes its folder. */
  close(): Promise<void>
}

export interface StartRedisOptions {
  /** The password (default: random). */
  password?: string
  /** Keep every write in an append-only file, flushed before it is acknowledged (default false). */
  appendOnly?: boolean
}

/**
 * Why a test server cannot start on this machine (one sentence naming what is missing and how
 * to install it), or undefined when it can. When `CI=true` a missing server is an error: this
 * throws rather than letting the tests be skipped.
 */
export function whyNoRedis(): string | undefined {
  if (binary()) return undefined
  const missing = `redis-server was not found in /usr/bin or on PATH (${INSTALL})`
  return missingOutsideCi(missing)
}

/** Starts a fresh server; throws (with the server's own log lines) when it cannot. */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const started = performance.now()
  const file = binary()
  if (!file) throw new Error(`redis-server was not found in /usr/bin or on PATH (${INSTALL})`)
  const password = options.password ?? randomBytes(12).toString('hex')
  const dir = mkdtempSync(join(tmpdir(), 'rein-redis-'))
  const log = join(dir, 'server.log')
  let port = 0
  let child: ChildProcess | undefined

  const killNow = () => {
    child?.kill('SIGKILL')
    child = undefined
  }
  const stopOnExit = () => {
    killNow()
    rmSync(dir, { recursive: true, force: true })
  }

  const start = async () => {
    // The password goes in on stdin as a config file, never on the command line (visible in ps).
    const args = ['-', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--logfile', log, '--save', '',
      '--appendonly', options.appendOnly ? 'yes' : 'no', '--appendfsync', 'always', '--daemonize', 'no']
    const proc = spawn(file, args, { stdio: ['pipe', 'ignore', 'ignore'] })
    proc.stdin!.end(`requirepass "${password.replace(/[\\"]/g, (c) => `\\${c}`)}"\n`)
    child = proc
    const exited = new Promise<never>((_, reject) => proc.once('exit', (code, signal) => {
      if (child === proc) child = undefined
      reject(new Error(`the test Redis server exited (${signal ?? `code ${code}`}) on 127.0.0.1:${port}: ${lastLines(log)}`))
    }))
    exited.catch(() => {})
    try {
      await Promise.race([untilReady(port, password), exited])
    } catch (error) {
      if (child === proc) killNow()
      throw error
    }
  }

  try {
    process.on('exit', stopOnExit)
    // A free port can be taken between finding it and binding it: try a few.
    for (let attempt = 1; child === undefined; attempt++) {
      port = await freePort()
      try {
        await start()
      } catch (error) {
        if (attempt === 3 || !/address already in use/i.test(lastLines(log))) throw error
      }
    }
  } catch (error) {
    process.off('exit', stopOnExit)
    stopOnExit()
    throw error
  }

  const stop = async (mode: 'graceful' | 'kill' = 'graceful') => {
    const proc = child
    if (!proc) return
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
    if (mode === 'kill') proc.kill('SIGKILL')
    else proc.kill('SIGTERM') // redis-server shuts down as on SHUTDOWN (append-only file flushed)
    await gone
  }
  return {
    host: '127.0.0.1', port, password,
    url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}/0`,
    startupMs: Math.round(performance.now() - started),
    stop,
    start: async () => { if (!child) await start() },
    async close() {
      await stop('kill')
      process.off('exit', stopOnExit)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function binary(): string | undefined {
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter).filter(Boolean)]
  const found = dirs.map((dir) => join(dir, 'redis-server')).find((file) => existsSync(file))
  if (!found) return undefined
  // A leftover symlink or a broken install answers nothing: check it runs.
  return spawnSync(found, ['--version']).status === 0 ? found : undefined
}

/** Resolves once the server answers PING after AUTH; rejects after READY_TIMEOUT_MS. */
async function untilReady(port: number, password: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    if (await answersPing(port, password)) return
    if (Date.now() > deadline) throw new Error(`the test Redis server did not answer on 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms`)
    await sleep(20)
  }
}

/** One plain RESP exchange: `AUTH <password>` then `PING`. */
function answersPing(port: number, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let reply = ''
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8')
      if (reply.includes('+PONG')) done(true)
      else if (reply.startsWith('-') || reply.includes('\r\n-')) done(false)
    })
    socket.once('connect', () => {
      const auth = `*2\r\n$4\r\nAUTH\r\n$${Buffer.byteLength(password)}\r\n${password}\r\n`
      socket.write(`${auth}*1\r\n$4\r\nPING\r\n`)
    })
  })
}


