import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ExecuteOptions, type ToolDefinition, type ToolExecutionResult } from '@rein/kernel'
import * as runCode from '../src/index.js'
import type { SandboxPool } from '../src/pool.js'

/**
 * A started kernel with `plugins` applied in order, then run_code on `config`, then `tools`.
 * `plugins` of the result are those plugins' forks, in the same order (`update()` one to
 * change its config while run_code keeps running).
 */
export async function harness(options: {
  config?: runCode.ConfigInput
  plugins?: [plugin: any, config?: any][]
  tools?: ToolDefinition[]
} = {}) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const plugins = (options.plugins ?? []).map(([plugin, config]) => ctx.plugin(plugin, config))
  const fork = ctx.plugin(runCode, options.config)
  await ctx.start()
  for (const tool of options.tools ?? []) ctx.tools.register(tool)
  return { ctx, fork, plugins }
}

/**
 * A started kernel whose `run_code` (on `config`) takes its threads from `pool`: two of them
 * on one pool run with different limits on the same threads. The caller disposes the pool.
 */
export async function onPool(pool: SandboxPool, config: runCode.ConfigInput) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  ctx.tools.register(runCode.runCodeTool(ctx, runCode.Config(config), pool))
  return ctx
}

let calls = 0

/** Runs `code` through `ctx.tools.execute` as a model's `run_code` call. */
export function run(ctx: Context, code: string, options: ExecuteOptions & { id?: string } = {}): Promise<ToolExecutionResult> {
  return ctx.tools.execute({ id: options.id ?? `run_${++calls}`, name: 'run_code', arguments: { code } }, options)
}

/** `['OK', value]` for a success, `[code, text]` for a failure. */
export function outcome(result: ToolExecutionResult): [string, unknown] {
  return result.isError ? [result.error.info?.code ?? '?', result.content[0].type === 'text' ? result.content[0].text : ''] : ['OK', result.value]
}

/** A temporary folder holding `files` (name -> text); `remove()` deletes it. */
export async function tempFiles(files: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'run-code-'))
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** `read_json({ name })`: the parsed JSON file `name` of `dir`, read with the call's signal. */
export function readJsonTool(dir: string): ToolDefinition<{ name: string }> {
  return defineTool<{ name: string }>({
    name: 'read_json',
    description: 'Read a JSON file of the test folder.\nSecond line.',
    parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    output: {
      schema: { type: 'object' },
      render: (_args, value) => [{ type: 'text', text: `rendered: ${JSON.stringify(value)}` }],
    },
    isConcurrencySafe: () => true,
    async execute({ name }, exec) {
      return JSON.parse(await readFile(join(dir, name), { encoding: 'utf8', signal: exec.signal }))
    },
  })
}

/** `add({ a, b })`: a number tool with an output schema. */
export const addTool = defineTool<{ a: number, b: number }, number>({
  name: 'add',
  description: 'Add two numbers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  output: { schema: { type: 'number' } },
  execute: ({ a, b }) => a + b,
})

/** `remove({ path })`: a tool a permission rule can deny. */
export const removeTool = defineTool<{ path: string }, string>({
  name: 'remove',
  description: 'Remove a file (a test double that only answers).',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }) => `removed ${path}`,
})
