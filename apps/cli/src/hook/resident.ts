/**
 * A resident answerer for `rein hook claude-code --resident`: one process per config file that
 * keeps the harness loaded and answers each hook call over a Unix socket only its user can
 * open, so a call costs a bare Node start and a round trip instead of loading rein. The client
 * never trusts it further than an answer: no process, a stale one (the config file changed), a
 * reply cut short or malformed — the call is answered in process instead, as without `--resident`.
 * The resident process exits when idle, and when its config file changes or disappears.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, lstatSync, mkdirSync, statSync, unlinkSync } from 'node:fs'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

/** Where the resident process of `configFile` listens (one per user and config file), if anywhere. */
export function socketPath(configFile: string): string | undefined {
  const dir = privateDir()
  return dir && join(dir, `${createHash('sha256').update(configFile).digest('hex').slice(0, 16)}.sock`)
}

/**
 * The resident process's answer to the hook input `text`, written to `io`: its exit code, or
 * undefined when there is none to be had (then one is started for the next call, if none runs).
 */
export async function askResident(configFile: string, text: string, io: Io): Promise<number | undefined> {
  const path = socketPath(configFile)
  if (!path) return undefined
  const reply = await new Promise<string | undefined>((resolve) => {
    const socket = createConnection(path)
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => { data += chunk })
    socket.on('end', () => resolve(data))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') start(configFile)
      resolve(undefined)
    })
    socket.end(JSON.stringify({ text, cwd: io.cwd }))
  })
  let answer: { code?: unknown, stdout?: unknown, stderr?: unknown }
  try {
    answer = JSON.parse(reply ?? '')
  } catch {
    return undefined
  }
  if (typeof answer?.code !== 'number' || typeof answer.stdout !== 'string' || typeof answer.stderr !== 'string') return undefined
  io.stdout.write(answer.stdout)
  io.stderr.write(answer.stderr)
  return answer.code
}

/** Starts the resident process of `configFile`, detached from this one. */
function start(configFile: string): void {
  const bin = process.argv[1]
  if (!bin) return
  spawn(process.execPath, [bin, 'hook', 'claude-code', '--serve', '-c', configFile], { detached: true, stdio: 'ignore' }).unref()
}

/** Runs the resident process of `configFile` until it is idle, stale or its file is gone. */
export async function serveResident(configFile: string, io: Io): Promise<number> {
  const { claudeCodeHook, loadHookHarness } = await import('./claude-code.js')
  const { Logger } = await import('cordis')
  for (const target of Logger.targets) target.print = () => {}
  const loadedAt = mtimeOf(configFile)
  const harness = await loadHookHarness(configFile, io)
  const path = socketPath(configFile)
  if (!path || await listening(path)) return 0
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
  const stale = () => mtimeOf(configFile) !== loadedAt
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
        const request = JSON.parse(data) as { text: string, cwd: string }
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

/** The config file's modification time, or NaN once it is gone. */
function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return Number.NaN
  }
}

/** Whether a resident process already answers on `path`. */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    socket.on('connect', () => { socket.destroy(); resolve(true) })
    socket.on('error', () => resolve(false))
  })
}
