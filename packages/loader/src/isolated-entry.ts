/**
 * A `tools:` entry marked `isolate: true`: its module default-exports one tool definition,
 * whose body then runs in a worker thread that an abort or a deadline terminates (through
 * `@rein/isolate`), so a body that never looks at its signal still cannot hang a turn. The
 * definition's schemas, `render` and flags stay on the main thread like any tool's.
 * `@rein/isolate` (and its worker pool) is imported only for such an entry.
 */
import { pathToFileURL } from 'node:url'
import type { Context } from 'cordis'
import type { ToolDefinition } from '@rein/kernel'
import { LoaderCodes, ValueProblem } from './errors.js'
import type { ModuleNamespace, PluginModule } from './modules.js'

/** Module files a worker thread can import on its own (no TypeScript without a build). */
const WORKER_LOADABLE = /\.(?:m?js|cjs)$/

/**
 * The plugin that registers the module's default-exported tool as an isolated tool; runs when
 * the entry loads, and imports `@rein/isolate`. Throws `ValueProblem`.
 */
export async function isolatedToolPlugin(namespace: ModuleNamespace, file: string): Promise<PluginModule> {
  if (!WORKER_LOADABLE.test(file)) {
    throw new ValueProblem(LoaderCodes.NOT_A_PLUGIN, ['isolate'],
      `"isolate: true" runs the module in a worker thread, which can only import JavaScript (.js, .mjs, .cjs); build ${file} to JavaScript and name the built file`)
  }
  const definition = (namespace as { default?: unknown }).default as Partial<ToolDefinition> | undefined
  if (typeof definition !== 'object' || definition === null || typeof definition.name !== 'string' || typeof definition.execute !== 'function') {
    throw new ValueProblem(LoaderCodes.NOT_A_PLUGIN, ['isolate'],
      '"isolate: true" needs a module whose default export is one tool definition { name, description, parameters, execute }')
  }
  const { execute: _body, ...shown } = definition as ToolDefinition
  const module = pathToFileURL(file).href
  const { registerIsolated } = await import('@rein/isolate')
  return {
    name: `isolated:${shown.name}`,
    inject: ['tools'],
    apply(ctx: Context) {
      registerIsolated(ctx, { ...shown, module, export: 'default' })
    },
  } as PluginModule
}
