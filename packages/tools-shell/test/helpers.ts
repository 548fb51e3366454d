// Test helpers: a temp root with a sibling folder outside it, a real kernel Context with
// the plugin applied, and a look at which processes are still alive (waiting for them to end
// by polling /proc up to a generous deadline, never by a fixed sleep).
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import type { ExecuteOptions, ToolExecutionResult } from '@rein/kernel'
import { onTestFinished } from 'vitest'
import * as toolsShell from '../src/index.js'
import type { BashValue } from '../src/index.js'

export interface Shell {
  root: string
  outside: string
  ctx: Context
  call(args: Record<string, unknown>, options?: ExecuteOptions): Promise<ToolExecutionResult>
}

let ids = 0

/** A fresh root with the plugin mounted on a real kernel. `before` may add plugins first. */
export async function shell(config: Record<string, unknown> = {}, before?: (ctx: Context) => void): Promise<Shell> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'rein-shell-')))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const root = path.join(dir, 'root')
  const outside = path.join(dir, 'outside')
  await mkdir(root)
  await mkdir(outside)
  const ctx = new Context()
  ctx.plugin(kernel)
  before?.(ctx)
  ctx.plugin(toolsShell, { root, ...config })
  await ctx.start()
  onTestFinished(() => ctx.stop())
  return {
    root,
    outside,
    ctx,
    call: (args, options) => ctx.tools.execute({ id: `call_${++ids}`, name: 'bash', arguments: args }, options),
  }
}

export function codeOf(result: ToolExecutionResult): string | undefined {
  return result.isError ? result.error.info?.code : undefined
}

export function valueOf(result: ToolExecutionResult): BashValue {
  if (result.isError) throw new Error(`expected a success, got ${result.error.info?.code}: ${result.error.message}`)
  return result.value as unknown as BashValue
}

export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
}

/** One process at one moment: its pid and start time, so a reused pid is never taken for it. */
export interface Proc { pid: number, start: string }

/** The stat fields after the command name (field 3 onwards); the name may hold spaces and ")". */
function fields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** Whether `proc` is still running. A zombie is not: it runs no code, and where init does not reap orphans, it stays. */
export function isAlive(proc: Proc): boolean {
  const f = fields(proc.pid)
  return f !== undefined && f[19] === proc.start && f[0] !== 'Z' && f[0] !== 'X'
}

/** `pid` as a `Proc`, read now. */
export function procOf(pid: number): Proc {
  const f = fields(pid)
  if (!f) throw new Error(`process ${pid} does not exist`)
  return { pid, start: f[19] }
}

/** The live members of session `sid`, now. */
export function sessionOf(sid: number): Proc[] {
  const members: Proc[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const f = fields(Number(name))
    if (f && Number(f[3]) === sid && f[0] !== 'Z' && f[0] !== 'X') members.push({ pid: Number(name), start: f[19] })
  }
  return members
}

/** Generous: a loaded machine may take a while to schedule a dying process. */
const DEADLINE_MS = 15_000

/**
 * Waits until every one of `procs` has ended, polling /proc, and gives the pids still alive
 * at the deadline (so `toEqual([])` reads as "all gone"). Never a fixed sleep.
 */
export async function gone(procs: Proc[], deadlineMs = DEADLINE_MS): Promise<number[]> {
  const until = Date.now() + deadlineMs
  for (let wait = 5; ; wait = Math.min(2 * wait, 100)) {
    const left = procs.filter(isAlive).map((proc) => proc.pid)
    if (left.length === 0 || Date.now() >= until) return left
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/** Waits until session `sid` has no live member; gives the pids still in it at the deadline. */
export async function sessionGone(sid: number, deadlineMs = DEADLINE_MS): Promise<number[]> {
  const until = Date.now() + deadlineMs
  for (let wait = 5; ; wait = Math.min(2 * wait, 100)) {
    const left = sessionOf(sid).map((proc) => proc.pid)
    if (left.length === 0 || Date.now() >= until) return left
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/** A promise with its resolve function, for gating on an event. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => { open = resolve })
  return { promise, open }
}
