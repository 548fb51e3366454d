/**
 * Runs one command as `<shell> -c <command>` in a session of its own, and makes sure every
 * process in that session ends with the call: when the shell exits (background jobs too, in
 * whatever process group), on abort, and at the time limit, each gets SIGTERM, then SIGKILL
 * after `killGraceMs` (session.ts). The promise settles once the session is empty (or what
 * survived SIGKILL is named) and the output is closed; if something outside the session still
 * holds the output open, it settles `settleMs(killGraceMs)` later without it.
 */
import { spawn } from 'node:child_process'
import { CodedError } from '@rein/kernel'
import { Capture } from './capture.js'
import { SPAWN_FAILED } from './codes.js'
import { endSession } from './session.js'

export interface RunOptions {
  shell: string
  command: string
  cwd: string
  env: Record<string, string>
  signal: AbortSignal
  /** The command's own time limit; unset = none. */
  timeoutMs?: number
  killGraceMs: number
  /** Bytes held at each end of each stream (the largest budget `Capture.kept` will be asked for). */
  keepBytes: number
  /** Called once the process exists, with its pid (= its session and process group id). */
  onSpawn?: (pid: number) => void
  /** Called on every chunk of output. */
  onOutput?: () => void
}

export interface RunOutcome {
  /** The shell's exit code, or null when it was ended by a signal. */
  exitCode: number | null
  /** The signal that ended the shell, if one did. */
  signal: NodeJS.Signals | null
  /** The time limit fired. */
  timedOut: boolean
  /** `options.signal` aborted before the command finished. */
  aborted: boolean
  /** Pids of the command's session still alive after SIGKILL and the wait (normally none). */
  survivors: number[]
  stdout: Capture
  stderr: Capture
}

/** How long to wait for processes to be gone after SIGKILL, and then for the output to close. */
export function settleMs(killGraceMs: number): number {
  return Math.max(killGraceMs, 500)
}

/** Runs `options.command`. Rejects only when the shell cannot be started (`SPAWN_FAILED`). */
export function run(options: RunOptions): Promise<RunOutcome> {
  const { signal, killGraceMs } = options
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    const child = spawn(options.shell, ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true, // setsid(): the command leads a new session (and process group)
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const stdout = new Capture(options.keepBytes)
    const stderr = new Capture(options.keepBytes)
    let exitCode: number | null = null
    let exitSignal: NodeJS.Signals | null = null
    let timedOut = false
    let aborted = false
    let ending = false
    let closed = false
    let sessionOver = false
    let settled = false
    let survivors: number[] = []
    let limitTimer: NodeJS.Timeout | undefined
    let closeTimer: NodeJS.Timeout | undefined

    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(limitTimer)
      clearTimeout(closeTimer)
      signal.removeEventListener('abort', onAbort)
      stdout.end()
      stderr.end()
      resolve({ exitCode, signal: exitSignal, timedOut, aborted, survivors, stdout, stderr })
    }
    // Ends the whole session once; then waits (bounded) for the output to close.
    const end = (sid: number) => {
      if (ending) return
      ending = true
      clearTimeout(limitTimer)
      endSession(sid, { graceMs: killGraceMs, settleMs: settleMs(killGraceMs) }).then((left) => {
        survivors = left
        sessionOver = true
        if (closed) return finish()
        closeTimer = setTimeout(() => {
          child.stdout?.destroy()
          child.stderr?.destroy()
          finish()
        }, settleMs(killGraceMs))
      }, (error: unknown) => {
        // Only a pid that is not a command's own session gets here, which spawn never gives.
        settled = true
        signal.removeEventListener('abort', onAbort)
        reject(error)
      })
    }
    const onAbort = () => {
      aborted = true
      if (child.pid !== undefined) end(child.pid)
    }

    child.once('error', (error) => {
      if (child.pid !== undefined) return // a failed kill or pipe: the 'close' event still comes
      settled = true
      signal.removeEventListener('abort', onAbort)
      reject(new CodedError(`could not start ${options.shell}: ${error.message}`, SPAWN_FAILED))
    })
    if (child.pid === undefined) return
    const sid = child.pid
    options.onSpawn?.(sid)
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout.push(chunk)
      options.onOutput?.()
    })
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr.push(chunk)
      options.onOutput?.()
    })
    child.once('exit', (code, sig) => {
      exitCode = code
      exitSignal = sig
      end(sid) // the call is over: whatever the command left running ends with it
    })
    child.once('close', () => {
      closed = true
      if (sessionOver) finish()
    })
    signal.addEventListener('abort', onAbort, { once: true })
    if (options.timeoutMs !== undefined) {
      limitTimer = setTimeout(() => {
        timedOut = true
        end(sid)
      }, options.timeoutMs)
    }
  })
}
