/**
 * A resident answerer for `rein hook claude-code --resident`: one process per config file and
 * working directory (the hook input's `cwd`, where the harness is loaded, as the one-shot hook
 * does) that keeps the harness loaded and answers each hook call over a Unix socket only its
 * user can open, so a call costs a bare Node start and a round trip instead of loading rein. The
 * client never trusts it further than an answer: no process, a stale one (a file it loaded
 * changed), a reply cut short or malformed — the call is answered in process instead, as
 * without `--resident`. The resident process exits when idle, and when a file it loaded changes.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, lstatSync, mkdirSync, realpathSync, statSync, unlinkSync } from 'node:fs'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { Io } from '../io.js'
import { MAX_INPUT_BYTES } from './input.js'

/** How long the resident process waits for a call before it exits. */
export const IDLE_MS = 10 * 60_000

/** The folder of the user's sockets: theirs alone (mode 0700), or no resident answers at all. */
function privateDir(): string | undefined {
  const uid = process.getuid?.()
  if (uid === undefined) return undefined
  const dir = join(tmpdir(), `rein-hook-${uid}`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(dir)
    // Another user could have made it first, to answer "allow" for us.
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0 ? dir : undefined
  } catch {
    return undefined
  }
}

/**
 * Where the resident process of `configFile` for the working directory `dir` (a real path)
 * listens, one per user, config file and folder; undefined when there is no private folder.
 */
export function socketPath(configFile: string, dir: string): string | undefined {
  const sockets = privateDir()
  return sockets && join(sockets, `${createHash('sha256').update(`${configFile}\0${dir}`).digest('hex').slice(0, 16)}.sock`)
}

/**
 * The resident process's answer to the hook input `text`, written to `io`: its exit code, or
 * undefined when there is none to be had (then one is started for the next call, if none runs).
 */
export async function askResident(configFile: string, text: string, io: Io): Promise<number | undefined> {
  const dir = hostDir(text, io.cwd)
  const path = dir && socketPath(configFile, dir)
  if (!dir || !path) return undefined
  const reply = await new Promise<string | undefined>((resolve) => {
    const socket = createConnection(path)
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => { data += chunk })
    socket.on('end', () => resolve(data))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') start(configFile, dir)
      resolve(undefined)
    })
    socket.end(JSON.stringify({ text, cwd: io.cwd, dir }))
  })
  let answer: { code?: unknown, stdout?: unknown, stderr?: unknown, stale?: unknown }
  try {
    answer = JSON.parse(reply ?? '')
  } catch {
    return undefined
  }
  // A stale resident has stopped listening: start the next one now, for the next call.
  if (answer?.stale === true) start(configFile, dir)
  if (typeof answer?.code !== 'number' || typeof answer.stdout !== 'string' || typeof answer.stderr !== 'string') return undefined
  io.stdout.write(answer.stdout)
  io.stderr.write(answer.stderr)
  return answer.code
}

/**
 * The real path of the folder the call is judged from: the input's `cwd` (else `fallback`, as
 * the hook reads it). Undefined when the input is not JSON or that is not an existing folder:
 * then the call is answered in process, which refuses it with the reason.
 */
function hostDir(text: string, fallback: string): string | undefined {
  try {
    const cwd: unknown = (JSON.parse(text) as { cwd?: unknown } | null)?.cwd ?? fallback
    if (typeof cwd !== 'string' || !isAbsolute(cwd)) return undefined
    const dir = realpathSync(cwd)
    return statSync(dir).isDirectory() ? dir : undefined
  } catch {
    return undefined
  }
}

/** Starts the resident process of `configFile` in the folder `dir`, detached from this one. */
function start(configFile: string, dir: string): void {
  const bin = process.argv[1]
  if (!bin) return
  const child = spawn(process.execPath, [bin, 'hook', 'claude-code', '--serve', '-c', configFile], { cwd: dir, detached: true, stdio: 'ignore' })
  child.on('error', () => {}) // no resident then; this call is answered in process all the same
  child.unref()
}

/**
 * Runs the resident process of `configFile` for the working directory until it is idle or a
 * file it loaded changes (then it answers `{"stale":true}` and stops).
 */
export async function serveResident(configFile: string, io: Io): Promise<number> {
  // The server's modules, loaded here: the client must load no runtime.
  const [{ claudeCodeHook, loadHookHarness }, { changedSince, fingerprint }] = await Promise.all([import('./claude-code.js'), import('./loaded-files.js')])
  const { Logger } = await import('cordis')
  for (const target of Logger.targets) target.print = () => {}
  const dir = realpathSync(io.cwd)
  const config = fingerprint(configFile)
  const loadStartedAt = Date.now()
  const harness = await loadHookHarness(configFile, io)
  const stale = changedSince(harness, config, loadStartedAt)
  const path = socketPath(configFile, dir)
  if (!path || stale() || await listening(path)) {
    await harness.dispose()
    return 0
  }
  try {
    unlinkSync(path)
  } catch { /* none left over */ }
  let idle: NodeJS.Timeout
  const server = createServer({ allowHalfOpen: true }, (socket) => answer(socket))
  const stop = () => {
    clearInterval(watch)
    clearTimeout(idle)
    server.close()
    void harness.dispose()
  }
  const awake = () => {
    clearTimeout(idle)
    idle = setTimeout(stop, IDLE_MS)
  }
  const watch = setInterval(() => { if (stale()) stop() }, 1000)
  const answer = (socket: Socket) => {
    awake()
    let data = ''
    socket.setEncoding('utf8')
    socket.on('error', () => {})
    socket.on('data', (chunk: string) => {
      data += chunk
      if (data.length > MAX_INPUT_BYTES * 2) socket.destroy()
    })
    socket.on('end', async () => {
      if (stale()) {
        socket.end('{"stale":true}')
        return stop()
      }
      let stdout = ''
      let stderr = ''
      try {
        const request = JSON.parse(data) as { text: string, cwd: string, dir: string }
        if (request.dir !== dir) throw new Error(`a call for ${request.dir} reached the resident of ${dir}`)
        const captured: Io = {
          stdout: { write: (chunk: string) => { stdout += chunk } },
          stderr: { write: (chunk: string) => { stderr += chunk } },
          cwd: request.cwd, env: io.env, isTTY: false,
        }
        const code = await claudeCodeHook(request.text, configFile, captured, harness)
        socket.end(JSON.stringify({ code, stdout, stderr }))
      } catch {
        socket.destroy() // the client answers the call itself
      }
    })
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => resolve())
  })
  chmodSync(path, 0o600)
  awake()
  await new Promise((resolve) => server.once('close', resolve))
  return 0
}

/** Whether a resident process already answers on `path`. */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    socket.on('connect', () => { socket.destroy(); resolve(true) })
    socket.on('error', () => resolve(false))
  })
}
