/** A real kernel with a few tools whose bodies record that they ran. */
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExecutionResult } from '@rein/kernel'

export interface Harness {
  ctx: Context
  /** Names of the tools whose bodies ran, in order. */
  ran: string[]
  /** Runs a call in the harness's session (`session`), unless `options` name another (or `session: undefined`). */
  call: (name: string, args?: Record<string, unknown>, options?: kernel.ExecuteOptions) => Promise<ToolExecutionResult>
  /** The session every call belongs to unless told otherwise: an id and an in-memory plugin state. */
  session: kernel.SessionRef
}

let sessions = 0

/** A session of its own, with plugin state kept in memory (as the agent keeps it, without a log). */
export function testSession(id = `test-session-${++sessions}`): kernel.SessionRef & { state: kernel.SessionState } {
  const values = new Map<string, kernel.Json>()
  return {
    id,
    state: {
      get: (plugin, key) => values.get(JSON.stringify([plugin, key])),
      set: (plugin, key, value) => { values.set(JSON.stringify([plugin, key]), value) },
    },
  }
}

let ids = 0

export async function harness(tools = ['read_file', 'write_file', 'bash', 'rm']): Promise<Harness> {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const ran: string[] = []
  for (const name of tools) {
    ctx.tools.register(defineTool({
      name,
      description: name,
      parameters: { type: 'object' },
      execute: () => {
        ran.push(name)
        return 'ok'
      },
    }))
  }
  const session = testSession()
  const call = (name: string, args: Record<string, unknown> = {}, options: kernel.ExecuteOptions = { session }) =>
    ctx.tools.execute({ id: `call_${++ids}`, name, arguments: args }, 'session' in options ? options : { ...options, session })
  return { ctx, ran, call, session }
}

/** The code of a failed result, or 'ok'. */
export function outcome(result: ToolExecutionResult): string {
  return result.isError ? result.error.info?.code ?? '?' : 'ok'
}

/** The message of a failed result. */
export function messageOf(result: ToolExecutionResult): string | undefined {
  return result.isError ? result.error.message : undefined
}

/** A promise with its resolver, to release a waiting step from a test. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => { open = resolve })
  return { promise, open }
}

