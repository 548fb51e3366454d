// What the durable and paired benches share: the model's step (100 calls of a no-op tool, with
// arguments as JSON text, as a model writes them) and a started harness with that tool.
import { join } from 'node:path'

/** How many calls the model asks for in its one step. */
export const CALLS = 100

/** The calls of the step. */
export const calls = Array.from({ length: CALLS }, (_, i) => ({ id: `call_${i}`, name: 'noop', arguments: JSON.stringify({ path: `src/file${i}.ts`, line: i }) }))

const parameters = {
  type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer' } }, required: ['path', 'line'], additionalProperties: false,
}

/**
 * A started harness with the no-op tool (concurrency-safe, async), built from the modules given
 * (a bench may load them from another checkout); with `plugins`, the six standard plugins in the
 * recommended order (`standardStack`), their audit file and spill store in `dir`.
 */
export async function noopHarness({ Context, kernel, standardStack }, { plugins, dir }) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  if (plugins) {
    standardStack(ctx, { audit: { file: join(dir, 'audit.jsonl') }, spill: { dir: join(dir, 'spill') } })
    await ctx.start()
  }
  ctx.tools.register(kernel.defineTool({
    name: 'noop', description: 'does nothing', parameters,
    output: { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value ?? null) }] },
    isConcurrencySafe: () => true, execute: async () => 'ok',
  }))
  return ctx
}
