/** A real kernel with a few tools whose bodies record that they ran. */
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExecutionResult } from '@rein/kernel'

export interface Harness {
  ctx: Context
  /** Names of the tools whose bodies ran, in order. */
  ran: string[]
  call: (name: string, args?: Record<string, unknown>, options?: kernel.ExecuteOptions) => Promise<ToolExecutionResult>
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
  const call = (name: string, args: Record<string, unknown> = {}, options?: kernel.ExecuteOptions) =>
    ctx.tools.execute({ id: `call_${++ids}`, name, arguments: args }, options)
  return { ctx, ran, call }
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

