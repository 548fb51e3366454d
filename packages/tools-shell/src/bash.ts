/**
 * The `bash` tool. A command that runs is a successful call whatever its exit code; the
 * value says how it ended (exit code, signal, time limit) and holds stdout and stderr, each
 * as head + marker + tail when too long, with exact byte counts. Every process the command
 * started in its session ends with the call, however the call ends; an abort of `exec.signal`
 * ends them and the call with that abort. Exclusive.
 */
import { defineTool, type ContentBlock, type ToolExec } from '@rein/kernel'
import { within, type Root } from '@rein/workspace'
import type { Config } from './config.js'
import type { Kept } from './capture.js'
import { openCwd } from './cwd.js'
import { run, type RunOutcome } from './run.js'

export interface BashArgs { command: string, cwd?: string }

export interface BashValue {
  /** The exit code, or null when the command was ended by a signal. */
  exitCode: number | null
  /** The signal that ended it (e.g. "SIGKILL"), when one did. */
  signal?: string
  /** The tool's own time limit (`config.timeoutMs`) ended it. */
  timedOut?: true
  stdout: string
  stderr: string
  /** UTF-8 bytes each stream produced in all. */
  stdoutBytes: number
  stderrBytes: number
  /** UTF-8 bytes left out of the middle of each stream (0 when it is whole). */
  stdoutOmittedBytes: number
  stderrOmittedBytes: number
  /** Pids of the command's processes still alive after SIGKILL and the wait (normally absent). */
  survivors?: number[]
}

const valueSchema = {
  type: 'object',
  required: ['exitCode', 'stdout', 'stderr', 'stdoutBytes', 'stderrBytes', 'stdoutOmittedBytes', 'stderrOmittedBytes'],
  properties: {
    exitCode: { type: ['integer', 'null'] },
    signal: { type: 'string' },
    timedOut: { const: true },
    stdout: { type: 'string' },
    stderr: { type: 'string' },
    stdoutBytes: { type: 'integer', minimum: 0 },
    stderrBytes: { type: 'integer', minimum: 0 },
    stdoutOmittedBytes: { type: 'integer', minimum: 0 },
    stderrOmittedBytes: { type: 'integer', minimum: 0 },
    survivors: { type: 'array', items: { type: 'integer' }, minItems: 1 },
  },
  additionalProperties: false,
}

/** Progress is reported on the first output, then at most once a second. */
const PROGRESS_EVERY_MS = 1000

/** The `bash` tool for `root`, with `shell` (an absolute path) and `env` (already picked). */
export function bashTool(root: Root, config: Config, shell: string, env: Record<string, string>) {
  const limit = config.timeoutMs === undefined ? '' : ` Commands are stopped after ${config.timeoutMs}ms.`
  return defineTool<BashArgs, BashValue>({
    name: 'bash',
    description: 'Run a bash command in the workspace and get its exit code, stdout and stderr. '
      + `Output is kept up to ${config.maxOutputBytes} bytes (start and end; the middle of longer output is left out, `
      + 'with the count). stdin is empty; background processes end with the command, so this cannot start a server '
      + 'that outlives the call.' + limit,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'The command, run as bash -c <command>.' },
        cwd: { type: 'string', description: 'Folder to run in, relative to the workspace root (default: the root).' },
      },
      required: ['command'],
      additionalProperties: false,
    },
    output: { schema: valueSchema, render },
    // The timeout plugin's deadline is set past the tool's own limit, so the tool's limit
    // (which keeps the output so far) fires first and the plugin stays a backstop.
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs + 2 * config.killGraceMs + 1000 }),
    async execute(args, exec) {
      const dir = await openCwd(root, args.cwd)
      const signal = exec.signal
      let outcome: RunOutcome
      try {
        outcome = await run({
          shell,
          command: args.command,
          cwd: within(dir), // the checked folder itself, never its path again
          // The call's idempotency key, for a command that asks an API to apply its effect once.
          env: { ...env, REIN_IDEMPOTENCY_KEY: exec.idempotencyKey },
          signal,
          timeoutMs: config.timeoutMs,
          killGraceMs: config.killGraceMs,
          keepBytes: config.maxOutputBytes,
          onSpawn: (pid) => { exec.meta.pid = pid },
          onOutput: throttledProgress(exec),
        })
      } finally {
        await dir.close()
      }
      if (outcome.survivors.length > 0) exec.meta.survivors = outcome.survivors
      if (outcome.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
      return toValue(outcome, config.maxOutputBytes)
    },
  })
}

function throttledProgress(exec: ToolExec): () => void {
  let last = -Infinity
  return () => {
    const now = Date.now()
    if (now - last < PROGRESS_EVERY_MS) return
    last = now
    exec.progress({ message: 'output' })
  }
}

/** Splits `max` between the streams: all of both if they fit, else the smaller gets up to half. */
export function budgets(stdoutBytes: number, stderrBytes: number, max: number): [number, number] {
  if (stdoutBytes + stderrBytes <= max) return [stdoutBytes, stderrBytes]
  const half = Math.floor(max / 2)
  if (stdoutBytes <= stderrBytes) {
    const out = Math.min(stdoutBytes, half)
    return [out, max - out]
  }
  const err = Math.min(stderrBytes, half)
  return [max - err, err]
}

function toValue(outcome: RunOutcome, max: number): BashValue {
  const [outBudget, errBudget] = budgets(outcome.stdout.total, outcome.stderr.total, max)
  const stdout = outcome.stdout.kept(outBudget)
  const stderr = outcome.stderr.kept(errBudget)
  const value: BashValue = {
    exitCode: outcome.exitCode,
    stdout: joined(stdout),
    stderr: joined(stderr),
    stdoutBytes: stdout.totalBytes,
    stderrBytes: stderr.totalBytes,
    stdoutOmittedBytes: stdout.omittedBytes,
    stderrOmittedBytes: stderr.omittedBytes,
  }
  if (outcome.signal) value.signal = outcome.signal
  if (outcome.timedOut) value.timedOut = true
  if (outcome.survivors.length > 0) value.survivors = outcome.survivors
  return value
}

/** Head, a marker line naming the exact count left out, tail. */
export function joined(kept: Kept): string {
  if (kept.omittedBytes === 0) return kept.head + kept.tail
  return `${kept.head}\n[... ${kept.omittedBytes} bytes omitted ...]\n${kept.tail}`
}

function render(_args: BashArgs, v: BashValue): ContentBlock[] {
  const parts: string[] = []
  if (v.stdout) parts.push(v.stdout.endsWith('\n') ? v.stdout.slice(0, -1) : v.stdout)
  if (v.stderr) parts.push(`[stderr]\n${v.stderr.endsWith('\n') ? v.stderr.slice(0, -1) : v.stderr}`)
  parts.push(status(v))
  if (v.survivors) parts.push(`[warning: ${v.survivors.length} of its processes could not be ended (pids ${v.survivors.join(', ')})]`)
  return [{ type: 'text', text: parts.join('\n') }]
}

function status(v: BashValue): string {
  if (v.timedOut) return `[timed out: stopped with ${v.signal ?? 'SIGTERM'}; the output above is what it printed before]`
  if (v.exitCode === null) return `[ended by ${v.signal}]`
  return `[exit code ${v.exitCode}]`
}
