/** Shared set-up for the agent tests: a started kernel context, gate tools, a scripted agent, temp folders. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import type { Message, ToolExec } from '@rein/kernel'
import { createGate, scripted, type ScriptStep } from '@rein/testing'
import { onTestFinished } from 'vitest'
import { createAgent, memorySession, type AgentOptions, type SessionStore } from '../src/index.js'

/** A fresh folder under the OS temp folder, named `<prefix>XXXXXX`; removed when the test finishes, pass or fail. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Spawns `command args` with piped output; a child still running when the test finishes (it
 * timed out, or failed early) is killed then, and waited for before the test's folders go.
 */
export function spawnChild(command: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  onTestFinished(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return
    proc.kill('SIGKILL')
    await once(proc, 'exit')
  })
  return proc
}

/**
 * Runs `node script ...args` until it prints `frozen <point>`, then kills it with SIGKILL (a
 * real crash at exactly that point). Rejects, with what it printed, when it exits otherwise.
 */
export function killChildAt(script: string, args: readonly string[], point: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawnChild(process.execPath, [script, ...args])
    let out = ''
    let err = ''
    proc.stderr.on('data', (chunk) => { err += chunk })
    proc.stdout.on('data', (chunk) => {
      out += chunk
      if (out.includes(`frozen ${point}\n`)) proc.kill('SIGKILL')
    })
    proc.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve()
      else reject(new Error(`the child never reached ${point} (exit ${code}): ${out}${err}`))
    })
  })
}

/** A started context with the kernel loaded. */
export async function kernelContext(): Promise<Context> {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  return ctx
}

/**
 * A context with gated tools `read` (parallel) and `write` (exclusive) on one gate, and a
 * recorder plugin that logs pre-execute and post-execute entries as `pre <id>` / `post <id>`.
 */
export async function gatedHarness() {
  const ctx = await kernelContext()
  const gate = createGate()
  const stages: string[] = []
  ctx.plugin({
    name: 'recorder',
    inject: ['tools'],
    apply(c: Context) {
      c.tools.register(gate.tool('read'))
      c.tools.register(gate.tool('write', { safe: false }))
      c.on('tools/pre-execute', async (exec: ToolExec, next) => { stages.push(`pre ${exec.id}`); return next() })
      c.on('tools/post-execute', async (exec: ToolExec, _result, next) => { stages.push(`post ${exec.id}`); return next() })
    },
  })
  await ctx.start()
  return { ctx, gate, stages }
}

/** An agent over `steps` on `ctx`, with a memory session unless one is given. */
export function scriptedAgent(ctx: Context, steps: ScriptStep[], options: Partial<AgentOptions> = {}) {
  const provider = scripted(steps)
  const session: SessionStore = options.session ?? memorySession()
  const agent = createAgent(ctx, { provider, session, ...options })
  return { agent, provider, session }
}

/** The tool messages of a transcript, as `id:code-or-ok` strings, in transcript order. */
export function outcomes(messages: readonly Message[]): string[] {
  return messages.filter((m) => m.role === 'tool').map((m) => {
    const text = m.content[0]?.type === 'text' ? m.content[0].text : ''
    return `${m.toolCallId}:${m.isError ? text : 'ok'}`
  })
}

/** Resolves after pending promise callbacks and one macrotask have run (no timing involved). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

