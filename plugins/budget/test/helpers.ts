/** A real kernel with the budget plugin, two tools, and an agent over a scripted model. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type Json, type SessionState, type ToolExecutionResult } from '@rein/kernel'
import { createAgent, memorySession, type SessionEntry, type SessionStore } from '@rein/agent'
import { scripted, type ScriptStep } from '@rein/testing'
import { onTestFinished } from 'vitest'
import * as budget from '../src/index.js'

export interface Harness {
  ctx: Context
  /** The ids of the calls whose body ran, in order. */
  ran: string[]
}

/** A started context: the kernel (with `plugins.kernel`), then `before` (plugins listed outside budget), budget with `config`, then `after`. */
export async function harness(
  config: budget.ConfigInput,
  plugins: { kernel?: Partial<kernel.KernelConfig>, before?: (ctx: Context) => void, after?: (ctx: Context) => void } = {},
): Promise<Harness> {
  const ctx = new Context()
  ctx.plugin(kernel, plugins.kernel)
  plugins.before?.(ctx)
  ctx.plugin(budget, config)
  plugins.after?.(ctx)
  await ctx.start()
  const ran: string[] = []
  for (const name of ['read', 'pay']) {
    ctx.tools.register(defineTool({
      name, description: `${name}s`, parameters: { type: 'object' }, isConcurrencySafe: () => name === 'read',
      execute: (args, exec) => { ran.push(exec.id); return { name, args } as kernel.Json },
    }))
  }
  onTestFinished(() => ctx.stop())
  return { ctx, ran }
}

/** Runs an agent over `steps` on `session` (a fresh memory session by default). */
export async function runAgent(ctx: Context, steps: ScriptStep[], session: SessionStore = memorySession(), input = 'go') {
  const provider = scripted(steps)
  const agent = createAgent(ctx, { provider, session, maxTurns: 50 })
  const outcome = await agent.run(input)
  return { outcome, provider, session }
}

/** `id:code` (or `id:ok`) for every tool result of the session, in log order. */
export async function results(session: SessionStore): Promise<string[]> {
  return (await session.load()).flatMap((e: SessionEntry) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : [])
}

/** The text the model was shown for call `id`. */
export async function textOf(session: SessionStore, id: string): Promise<string> {
  const entry = (await session.load()).find((e) => e.type === 'tool/result' && e.message.toolCallId === id)
  const block = entry?.type === 'tool/result' ? entry.message.content[0] : undefined
  return block?.type === 'text' ? block.text : ''
}

/** The code of a result, or `ok`. */
export const code = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'ok')

/** A fresh folder removed when the test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rein-budget-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** A session state kept in a map, for calls made without the agent. */
export function mapState(): SessionState {
  const values = new Map<string, Json>()
  return { get: (plugin, key) => values.get(`${plugin}/${key}`), set: (plugin, key, value) => { values.set(`${plugin}/${key}`, value) } }
}
