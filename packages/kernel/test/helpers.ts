import { Context } from 'cordis'
import * as kernel from '../src/index.js'
import { defineTool, type ToolDefinition, type ToolExecutionResult } from '../src/index.js'

/** A started root context with the kernel. */
export async function makeKernel(config?: Partial<kernel.KernelConfig>): Promise<Context> {
  const ctx = new Context()
  ctx.plugin(kernel, config)
  await ctx.start()
  return ctx
}

/** Plugs an anonymous-but-named plugin and waits until it has applied. */
export async function plug(ctx: Context, name: string, apply: (ctx: Context) => void) {
  const fork = ctx.plugin({ name, inject: ['tools'], apply })
  await ctx.start()
  return fork
}

/** A tool that returns its arguments' `text` (or the value `out`), for most tests. */
export function echoTool(overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({
    name: 'echo',
    description: 'Echo the text back.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    output: { schema: { type: 'string' } },
    execute: (args: { text: string }) => args.text,
    ...overrides,
  })
}

/** The code of a result, or 'OK'. */
export function code(result: ToolExecutionResult): string {
  return result.isError ? result.error.info?.code ?? '(none)' : 'OK'
}

/** The text of the first content block. */
export function firstText(result: ToolExecutionResult): string {
  const block = result.content[0]
  return block?.type === 'text' ? block.text : ''
}

export const call = (args: unknown, name = 'echo', id = 'call_1') => ({ id, name, arguments: args })

/** Values a broken or hostile plugin or tool may throw or return; reading any of them carelessly throws. */
export function hostileValues(): Record<string, () => unknown> {
  return {
    nullProto: () => Object.create(null),
    throwingMessage: () => {
      const error = new Error('x')
      Object.defineProperty(error, 'message', { get() { throw new Error('message getter') } })
      return error
    },
    revokedProxy: () => {
      const { proxy, revoke } = Proxy.revocable({}, {})
      revoke()
      return proxy
    },
    trappedProxy: () => new Proxy({}, {
      get() { throw new Error('get trap') },
      getPrototypeOf() { throw new Error('prototype trap') },
      ownKeys() { throw new Error('ownKeys trap') },
    }),
    throwingGetter: () => Object.defineProperty({}, 'kind', { enumerable: true, get() { throw new Error('kind getter') } }),
    bareObject: () => ({ some: 'thing' }),
    symbol: () => Symbol('s'),
  }
}

/** A promise and the functions that settle it: tests wait on events, never on time. */
export function deferred<T = undefined>() {
  let settle!: (value: T) => void
  let fail!: (error: unknown) => void
  const promise = new Promise<T>((resolve, reject) => { settle = resolve; fail = reject })
  return { promise, resolve: (value?: T) => settle(value as T), reject: (error: unknown) => fail(error) }
}
