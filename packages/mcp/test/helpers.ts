import { Context, Logger } from 'cordis'
import * as kernel from '@rein/kernel'
import type { ToolExecutionResult } from '@rein/kernel'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as mcp from '../src/index.js'
import type { Config, McpServerEvent } from '../src/index.js'

const require = createRequire(import.meta.url)

/** The entry script of one of the reference servers installed as devDependencies. */
export function serverScript(which: 'everything' | 'filesystem'): string {
  const manifest = require.resolve(`@modelcontextprotocol/server-${which}/package.json`)
  const { bin } = require(manifest) as { bin: Record<string, string> }
  return join(dirname(manifest), Object.values(bin)[0]!)
}

/** The stdio config of a reference server, run with this Node. */
export function referenceServer(which: 'everything' | 'filesystem', args: string[] = [], extra: object = {}) {
  return { command: process.execPath, args: [serverScript(which), ...args], ...extra }
}

/** The stdio config of the raw JSON-RPC fixture server (hostile answers), in `mode`. */
export function rawServer(mode = 'serve', extra: object = {}) {
  return { command: process.execPath, args: [join(dirname(fileURLToPath(import.meta.url)), 'fixtures/raw-server.mjs'), mode], ...extra }
}

/** The stdio config of this package's own fixture server (list changes, odd tools). */
export function dynamicServer() {
  return { command: process.execPath, args: [join(dirname(fileURLToPath(import.meta.url)), 'fixtures/dynamic-server.mjs')] }
}

export interface Harness {
  ctx: Context
  events: McpServerEvent[]
  warnings: string[]
  /** Every record of the `mcp` logger, debug included. */
  logs: string[]
  /** The first event matching `match` at index `from` or later (waits for it if needed). */
  until(match: (event: McpServerEvent) => boolean, from?: number): Promise<McpServerEvent>
  /** The pid of a stdio server's current child, from its latest `connected` event. */
  pid(server: string): number
  /** Disposes the plugin and waits until every child it ever started has exited. */
  close(): Promise<void>
}

/** Routes the warnings of logger `name` into the returned array (nothing is printed). */
export function captureWarnings(name = 'mcp'): string[] {
  return captureLogs(name).warnings
}

/** Routes the records of logger `name` into arrays (nothing is printed): its warnings, and every record. */
export function captureLogs(name = 'mcp') {
  const warnings: string[] = []
  const logs: string[] = []
  Logger.targets.splice(0, Logger.targets.length, {
    colors: 0,
    levels: { base: 3 },
    record: (record: { type: string, name: string, content: string }) => {
      if (record.name !== name) return
      logs.push(record.content)
      if (record.type === 'warn') warnings.push(record.content)
    },
  } as never)
  return { warnings, logs }
}

/** A started kernel with the mcp plugin on `config`; warnings are captured instead of printed. */
export async function harness(config: Config): Promise<Harness> {
  const { warnings, logs } = captureLogs()
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const events: McpServerEvent[] = []
  const waiters = new Set<() => void>()
  ctx.on('mcp/server', (event) => {
    events.push(event)
    for (const wake of [...waiters]) wake()
  })
  const fork = ctx.plugin(mcp, config)
  await ctx.start()
  const until = (match: (event: McpServerEvent) => boolean, from = 0) => new Promise<McpServerEvent>((resolve) => {
    const check = () => {
      const found = events.slice(from).find(match)
      if (!found) return
      waiters.delete(check)
      resolve(found)
    }
    waiters.add(check)
    check()
  })
  const pid = (server: string) => {
    const connected = events.filter((e) => e.kind === 'connected' && e.server === server)
    const last = connected[connected.length - 1]
    if (last?.kind !== 'connected' || last.pid === undefined) throw new Error(`server ${server} has no pid`)
    return last.pid
  }
  const close = async () => {
    const pids = events.flatMap((e) => e.kind === 'connected' && e.pid !== undefined ? [e.pid] : [])
    fork.dispose()
    await Promise.all(pids.map(exited))
  }
  return { ctx, events, warnings, logs, until, pid, close }
}

/** Resolves once process `pid` no longer exists (polls; gives up after 10 s). */
export async function exited(pid: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (!alive(pid)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`process ${pid} is still running`)
}

/** Whether process `pid` exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The code of a result, or 'OK'. */
export function code(result: ToolExecutionResult): string {
  return result.isError ? result.error.info?.code ?? '(none)' : 'OK'
}

/** The text of the first content block. */
export function text(result: ToolExecutionResult): string {
  const block = result.content[0]
  return block?.type === 'text' ? block.text : ''
}

let ids = 0
/** A tool call with a fresh id. */
export function call(name: string, args: Record<string, unknown> = {}) {
  return { id: `call_${++ids}`, name, arguments: args }
}

/** A promise and the function that resolves it. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => { open = resolve })
  return { promise, open }
}
