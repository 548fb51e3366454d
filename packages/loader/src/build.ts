/**
 * Builds the cordis Context of a harness: the kernel, then every plugin entry, then every
 * tool entry, in file order. Each entry is imported and its config checked before anything
 * is applied; then each is applied and awaited until it is active before the next, so that
 * file order is onion order (first listed = outermost) even for plugins that `inject`
 * services or apply asynchronously. On any failure the partial Context is stopped.
 */
import { Context, type ForkScope } from 'cordis'
import * as kernel from '@rein/kernel'
import type { EntryConfig } from './config.js'
import { ConfigError, LoaderCodes, ValueProblem, type LoaderCode } from './errors.js'
import { importModule, pluginOf, type ModuleNamespace, type PluginModule } from './modules.js'
import { checkPluginConfig } from './plugin-config.js'
import { resolveModule } from './resolve.js'
import type { ValuePath, YamlSource } from './source.js'

/** A plugin or tool entry as applied: the entry, the module's plugin, and its cordis fork. */
export interface AppliedEntry {
  entry: EntryConfig
  plugin: PluginModule
  /** Absolute path of the module file. */
  file: string
  fork: ForkScope
}

/** Turns a problem inside an entry into a `ConfigError` at the right line. */
export function entryError(source: YamlSource, entry: EntryConfig, code: LoaderCode, detail: string, path: ValuePath = [], cause?: unknown): ConfigError {
  const line = path.length ? source.lineOf([...entry.path, ...path]) : entry.line
  return new ConfigError(code, { file: source.file, line, entry: entry.label }, detail, { cause })
}

/** Resolves and imports the module of `entry`. Throws `ConfigError` naming the entry. */
export async function loadEntryModule(source: YamlSource, entry: EntryConfig): Promise<{ namespace: ModuleNamespace, file: string }> {
  try {
    const resolved = resolveModule(entry.use, source.dir)
    return { namespace: await importModule(resolved), file: resolved.file }
  } catch (error) {
    throw asEntryError(source, entry, error)
  }
}

/** Imports and checks every entry, then applies them in order on a new Context. */
export async function buildContext(source: YamlSource, entries: readonly EntryConfig[]): Promise<{ ctx: Context, applied: AppliedEntry[] }> {
  const settled = await Promise.allSettled(entries.map(async (entry) => {
    const { namespace, file } = await loadEntryModule(source, entry)
    try {
      const plugin = pluginOf(namespace)
      checkPluginConfig(plugin, entry.config)
      return { entry, plugin, file }
    } catch (error) {
      throw asEntryError(source, entry, error)
    }
  }))
  const prepared = settled.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason
    return outcome.value
  })
  rejectDuplicates(source, prepared)

  const ctx = new Context()
  try {
    ctx.plugin(kernel)
    await ctx.start()
    const applied: AppliedEntry[] = []
    for (const item of prepared) {
      const fork = ctx.plugin(item.plugin as any, item.entry.config) as ForkScope
      await ctx.start()
      checkActive(source, ctx, item.entry, fork)
      applied.push({ ...item, fork })
    }
    return { ctx, applied }
  } catch (error) {
    await ctx.stop()
    throw error
  }
}

/**
 * A module applies once per Context: cordis keeps one runtime per plugin object, so a second
 * entry would silently be ignored for a package (and applied twice for a local file, which
 * imports fresh). Both are refused unless the plugin declares itself `reusable`.
 */
function rejectDuplicates(source: YamlSource, prepared: readonly { entry: EntryConfig, plugin: PluginModule, file: string }[]): void {
  prepared.forEach(({ entry, plugin, file }, index) => {
    if (plugin === kernel || (plugin as { name?: unknown }).name === kernel.name) {
      throw entryError(source, entry, LoaderCodes.CONFIG_INVALID, 'this is the kernel, which every harness loads first by itself; remove this entry')
    }
    const first = prepared.findIndex((other) => other.file === file)
    if (first === index || (plugin as { reusable?: unknown }).reusable) return
    throw entryError(source, entry, LoaderCodes.CONFIG_INVALID,
      `the same module is already listed as ${prepared[first]!.entry.label}; a plugin applies once per harness, so merge the two entries`)
  })
}

function checkActive(source: YamlSource, ctx: Context, entry: EntryConfig, fork: ForkScope): void {
  const error = fork.error ?? fork.runtime.error
  if (error !== undefined && error !== null) {
    const message = error instanceof Error ? error.message : String(error)
    throw entryError(source, entry, LoaderCodes.PLUGIN_APPLY_FAILED, `the plugin failed to start: ${message}`, [], error)
  }
  if (!fork.runtime.ready) {
    const missing = Object.entries(fork.runtime.inject)
      .filter(([name, meta]) => meta.required && (ctx.get(name) === undefined || ctx.get(name) === null))
      .map(([name]) => name)
    throw entryError(source, entry, LoaderCodes.PLUGIN_APPLY_FAILED,
      `the plugin needs the service${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, which no earlier entry provides; list the plugin that provides it above this one`)
  }
}

function asEntryError(source: YamlSource, entry: EntryConfig, error: unknown): unknown {
  if (error instanceof ValueProblem) return entryError(source, entry, error.code, error.detail, error.path, error)
  return error
}
