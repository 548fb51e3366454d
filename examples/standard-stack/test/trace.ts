// A tracer for stack entries: the wrapped plugin is applied with a context whose `ctx.on` and
// `ctx.tools.guard` wrap every handler it registers, so each run pushes
// `<plugin>:<hook>:enter` / `:exit` (observers, holds and guards push one `<plugin>:<hook>`).
// The handler is still registered on the plugin's own context, so chains name the plugin.
import type { Context } from 'cordis'
import type { Guard } from '@rein/kernel'
import type { StackEntry } from '../src/index.js'

type Handler = (...args: unknown[]) => unknown

const SHORT: Record<string, string> = {
  'tools/pre-execute': 'pre-execute',
  'tools/execute': 'execute',
  'tools/post-execute': 'post-execute',
  'tools/result': 'result',
  'tools/hand-off': 'hand-off',
}

/** `entry` with its plugin's apply traced into `log`. */
export function traced(entry: StackEntry, log: string[]): StackEntry {
  const { plugin } = entry
  return {
    ...entry,
    plugin: { ...plugin, apply: (ctx: Context, config: unknown) => plugin.apply(spyContext(ctx, plugin.name, log), config) },
  }
}

function spyContext(ctx: Context, name: string, log: string[]): Context {
  const on = (hook: string, handler: Handler, options?: object) =>
    (ctx.on as (...args: unknown[]) => unknown)(hook, wrap(`${name}:${SHORT[hook] ?? hook}`, hook, handler, log), options)
  const tools = ctx.tools
  const guard = (g: Guard) => tools.guard((exec) => {
    log.push(`${name}:guard`)
    return g(exec)
  })
  const spyTools = new Proxy(tools, { get: (target, key) => key === 'guard' ? guard : Reflect.get(target, key) })
  // A child of the plugin's context: everything but these two properties is the plugin's own.
  const spy = Object.create(ctx) as Context
  Object.defineProperty(spy, 'on', { value: on })
  Object.defineProperty(spy, 'tools', { value: spyTools })
  return spy
}

function wrap(label: string, hook: string, handler: Handler, log: string[]): Handler {
  if (hook === 'tools/result' || hook === 'tools/hand-off') {
    return function (this: unknown, ...args) {
      log.push(label)
      return handler.apply(this, args)
    }
  }
  return async function (this: unknown, ...args) {
    log.push(`${label}:enter`)
    try {
      return await handler.apply(this, args)
    } finally {
      log.push(`${label}:exit`)
    }
  }
}
