/**
 * Plain tool doubles: a sleep that honours its signal, a sleep that ignores it, and an echo
 * that returns its arguments (handy to check what a call really received). Each is a fresh
 * `ToolDefinition`, ready for `ctx.tools.register`.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { defineTool, type Json, type ToolDefinition } from '@rein/kernel'

/** Options shared by the tool doubles. */
export interface DoubleOptions {
  name?: string
  /** `isConcurrencySafe` result (default `true`). */
  safe?: boolean
}

const msParameters = {
  type: 'object',
  properties: { ms: { type: 'number', minimum: 0 } },
  additionalProperties: true,
} as const

/** `sleep({ ms })`: waits `ms` milliseconds, stops with the abort when its signal fires; returns `{ slept: ms }`. */
export function sleepTool(options: DoubleOptions = {}): ToolDefinition {
  const safe = options.safe ?? true
  return defineTool({
    name: options.name ?? 'sleep',
    description: 'Waits the given number of milliseconds.',
    parameters: msParameters,
    isConcurrencySafe: () => safe,
    async execute(args: { ms?: number }, exec) {
      const ms = args.ms ?? 0
      await sleep(ms, undefined, { signal: exec.signal })
      return { slept: ms }
    },
  })
}

/** `stubborn({ ms })`: waits `ms` milliseconds and never looks at its signal; returns `{ slept: ms }`. */
export function ignoresSignalTool(options: DoubleOptions = {}): ToolDefinition {
  const safe = options.safe ?? true
  return defineTool({
    name: options.name ?? 'stubborn',
    description: 'Waits the given number of milliseconds, whatever happens.',
    parameters: msParameters,
    isConcurrencySafe: () => safe,
    async execute(args: { ms?: number }) {
      const ms = args.ms ?? 0
      await sleep(ms)
      return { slept: ms }
    },
  })
}

/** `echo(args)`: returns its arguments as its value, at once. */
export function echoTool(options: DoubleOptions = {}): ToolDefinition {
  const safe = options.safe ?? true
  return defineTool({
    name: options.name ?? 'echo',
    description: 'Returns its arguments.',
    parameters: { type: 'object', additionalProperties: true },
    isConcurrencySafe: () => safe,
    execute: (args: Record<string, Json>) => args,
  })
}
