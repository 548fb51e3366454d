/**
 * Runs one command as `<shell> -c <command>` in a process group of its own, and makes sure
 * that group ends: on abort, on the time limit, and when the shell exits with children still
 * running, the whole group gets SIGTERM, then SIGKILL after `killGraceMs`. The promise
 * settles only once the shell has exited and its output is closed (or, if something outside
 * the group still holds the output open, one more grace period after SIGKILL).
 */
import { spawn } from 'node:child_process'
import { Capture } from './capture.js'
import { SPAWN_FAILED, ShellToolError } from './codes.js'

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
  /** Called once the process exists, with its pid (= its process group id). */
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
  stdout: Capture
  stderr: Capture
}

/** Runs `options.command`. Rejects only when the shell cannot be started (`SPAWN_FAILED`). */
export function run(options: RunOptions): Promise<RunOutcome> {
  const { signal, killGraceMs } = options
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    const child = spawn(options.shell, ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const stdout = new Capture(options.keepBytes)
    const stderr = new Capture(options.keepBytes)
    let exitCode: number | null = null
    let exitSignal: NodeJS.Signals | null = null
    let timedOut = false
    let aborted = false
    let settled = false
    let stopping = false
    const timers: NodeJS.Timeout[] = []
    let killTimer: NodeJS.Timeout | undefined

    const group = (sig: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false
      try {
        process.kill(-child.pid, sig)
        return true
      } catch {
        return false // ESRCH: the group is empty
      }
    }
    // SIGTERM now, SIGKILL after the grace, and give up on the pipes one grace later.
    const stop = () => {
      if (stopping) return
      stopping = true
      group('SIGTERM')
      killTimer = setTimeout(() => {
        group('SIGKILL')
        timers.push(setTimeout(forceClose, killGraceMs))
      }, killGraceMs)
    }
    const forceClose = () => {
      child.stdout?.destroy()
      child.stderr?.destroy()
      finish()
    }
    const onAbort = () => {
      aborted = true
      stop()
    }
    const finish = () => {
      if (settled) return
      settled = true
      for (const timer of timers) clearTimeout(timer)
      // Let a pending SIGKILL fire only if something of the group may still be there.
      if (killTimer && !group(0)) clearTimeout(killTimer)
      signal.removeEventListener('abort', onAbort)
      stdout.end()
      stderr.end()
      resolve({ exitCode, signal: exitSignal, timedOut, aborted, stdout, stderr })
    }

    child.once('error', (error) => {
      if (child.pid !== undefined) return // a failed kill or pipe: the 'close' event still comes
      settled = true
      for (const timer of timers) clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      reject(new ShellToolError(SPAWN_FAILED, `could not start ${options.shell}: ${error.message}`))
    })
    if (child.pid === undefined) return
    options.onSpawn?.(child.pid)
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
      stop() // ends whatever the command left running in its group
    })
    child.once('close', finish)
    signal.addEventListener('abort', onAbort, { once: true })
    if (options.timeoutMs !== undefined) {
      timers.push(setTimeout(() => {
        timedOut = true
        stop()
      }, options.timeoutMs))
    }
  })
}
