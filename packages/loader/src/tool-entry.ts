/**
 * A tool handed to `createHarness` directly (`tools: [defineTool({ ... })]`) beside plugin
 * entries: it becomes a one-line plugin that registers it, named after the tool, so its
 * problems (a schema the kernel rejects, a name taken) are reported in its place like any
 * entry's, and it is removed with the harness. A tool takes no config.
 */
import type { Context } from 'cordis'
import type { ToolDefinition } from '@rein/kernel'
import { isPlainObject } from './config.js'
import { LoaderCodes, ValueProblem } from './errors.js'

/** How an entry that is neither a plugin nor a tool is told what would do. */
export const ENTRY_SHAPES = 'a plugin, [plugin, config?], { plugin, config?, optional? }, or (under tools) a tool made with defineTool({ name, description, parameters, execute })'

/** A tool definition rather than a plugin: a plain object with a name and `execute`, and no `apply`. */
export function isToolValue(value: unknown): value is ToolDefinition {
  return isPlainObject(value) && typeof value.execute === 'function' && typeof value.apply !== 'function' && !('plugin' in value)
}

/** The plugin that registers `tool` on the harness's kernel. */
export function toolPlugin(tool: ToolDefinition, config: unknown): { name: string, inject: string[], apply(ctx: Context): void } {
  if (config !== undefined) {
    throw new ValueProblem(LoaderCodes.CONFIG_INVALID, [], `a tool takes no config: list the tool alone, not [tool, config]`)
  }
  return {
    name: typeof tool.name === 'string' ? tool.name : 'tool',
    inject: ['tools'],
    apply(ctx: Context) { ctx.tools.register(tool) },
  }
}
