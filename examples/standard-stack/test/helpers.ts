// Shared setup: a real kernel with the six standard plugins, a temp audit file (removed after
// the test), the test tools below, and a fake clock for the calls that need time to pass.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { onTestFinished, vi } from 'vitest'
import { loadStack, standardPlugins, type StackEntry, type StandardStackOptions } from '../src/index.js'

/** The permission rules every harness uses: deletes are denied, writes are asked about. */
export const RULES: StandardStackOptions['permissions'] = {
  rules: [
    { tool: 'delete_*', action: 'deny', reason: 'deleting is not allowed here' },
    { tool: 'write_*', action: 'ask', reason: 'writes need a person' },
  ],
}

/** The path of `audit.jsonl` in a fresh temp folder, which is removed when the test finishes, pass or fail. */
export async function auditFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rein-standard-stack-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return join(dir, 'audit.jsonl')
}

/** Fake `setTimeout` and `Date` only: real `setImmediate` drains pending promise work. */
export function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
}

/** Lets every pending promise continuation run (one real macrotask). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Settles `promise` by running every timer it needs (fake clock only). */
export async function settle<T>(promise: Promise<T>): Promise<T> {
  await flush()
  await vi.runAllTimersAsync()
  return promise
}

/** A body that settles only when its signal aborts (how a well-behaved slow tool times out). */
function untilAborted(exec: ToolExec): Promise<never> {
  const signal = exec.signal
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
}

/**
 * The tools under test; `runs` counts body runs by tool, `trace` is pushed `'body'` by each.
 * - `fetch_page` (idempotent, 100 ms deadline): its first `hangFirst` runs wait for the abort;
 * - `echo` (idempotent): returns `text`;  `broken` (idempotent): always throws;
 * - `hang` (idempotent, 100 ms deadline): never settles and ignores its signal;
 * - `delete_file`, `write_file`: bodies that must never run here;  `dump`: returns `output.text`.
 */
export function testTools(hangFirst: number, trace: string[]) {
  const runs: Record<string, number> = {}
  const output = { text: '' }
  const tool = (name: string, execute: (args: any, exec: ToolExec) => unknown, extra: object = {}) => defineTool({
    name, description: `test tool ${name}`, parameters: { type: 'object' }, idempotent: true, ...extra,
    execute: (args: any, exec: ToolExec) => {
      runs[name] = (runs[name] ?? 0) + 1
      trace.push('body')
      return execute(args, exec)
    },
  })
  const definitions = [
    tool('fetch_page', (args, exec) => runs.fetch_page > hangFirst ? `page ${args.url}` : untilAborted(exec), { timeoutMs: 100 }),
    tool('echo', (args) => String(args.text)),
    tool('broken', () => { throw new Error('the upstream is broken') }),
    tool('hang', () => new Promise(() => {}), { timeoutMs: 100 }),
    tool('delete_file', () => 'deleted'),
    tool('write_file', () => 'written'),
    tool('dump', () => output.text, { idempotent: false }),
  ]
  return { definitions, runs, output }
}

export interface HarnessOptions {
  /** How many runs of `fetch_page` time out before one succeeds (default 2). */
  hangFirst?: number
  /** Replaces each plugin before it is loaded (e.g. a tracer). */
  wrap?: (entry: StackEntry) => StackEntry
  /** Receives `'body'` from every tool body. */
  trace?: string[]
}

/**
 * A started context: kernel, the standard stack (memory spill store, `RULES`, asks answered
 * deny, jitter fixed at 0.5) writing its audit lines to a fresh temp file, then the test tools.
 */
export async function harness(options: HarnessOptions = {}) {
  const file = await auditFile()
  const tools = testTools(options.hangFirst ?? 2, options.trace ?? [])
  const ctx = new Context()
  ctx.plugin(kernel)
  const entries = standardPlugins({
    audit: { file }, spill: { store: 'memory' }, permissions: RULES, ask: () => 'deny', random: () => 0.5,
  })
  loadStack(ctx, options.wrap ? entries.map(options.wrap) : entries)
  ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (c: Context) => tools.definitions.forEach((t) => c.tools.register(t)) })
  await ctx.start()
  let count = 0
  /** Runs one call through the whole pipeline, as the model's next call (`call_<n>`, index n). */
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolExecutionResult> => {
    count++
    return ctx.tools.execute({ id: `call_${count}`, name, arguments: args }, { index: count })
  }
  return { ctx, file, call, runs: tools.runs, output: tools.output, auditLines: () => readLines(file) }
}

/** The parsed lines of a JSONL file. */
export async function readLines(file: string): Promise<Record<string, any>[]> {
  const text = await readFile(file, 'utf8')
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line))
}

/** `error.info.code` of a failure, `'OK'` for a success. */
export function codeOf(result: ToolExecutionResult): string | undefined {
  return result.isError ? result.error.info?.code : 'OK'
}
