// Test helpers: a temp root with a sibling folder outside it, a real kernel Context with
// the plugin applied, and a look at which processes of a process group are still alive.
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

/**
 * The pids of process group `pgid` that are alive. Zombies do not count: in a container
 * whose init does not reap orphans, a killed grandchild stays a zombie (it runs no code).
 */
export function liveMembers(pgid: number): number[] {
  const live: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') live.push(Number(name))
  }
  return live
}

/** Whether process `pid` is alive (not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/** A promise with its resolve function, for gating on an event. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => { open = resolve })
  return { promise, open }
}
