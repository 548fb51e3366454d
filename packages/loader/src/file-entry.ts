/**
 * A rein.yaml entry as something to build: its module is resolved from the config's folder
 * (or rein's installation) and imported, and its problems point at the entry's line, or at
 * the line of the key inside its config that they are about.
 */
import type { EntryPlan } from './build.js'
import type { EntryConfig } from './config.js'
import { ConfigError, ValueProblem, type LoaderCode, type Location } from './errors.js'
import { isolatedToolPlugin } from './isolated-entry.js'
import { importModule, pluginOf, type ModuleNamespace } from './modules.js'
import { resolveConfigPaths } from './config-paths.js'
import { resolveModule } from './resolve.js'
import type { ValuePath, YamlSource } from './source.js'

/** The build plan of a plugin or tool entry of `source`. */
export function fileEntryPlan(source: YamlSource, entry: EntryConfig): EntryPlan {
  return {
    label: entry.label,
    optional: entry.optional,
    entry,
    load: async () => {
      const { namespace, file } = await importEntryModule(source, entry)
      const plugin = entry.isolate ? await isolatedToolPlugin(namespace, file) : pluginOf(namespace)
      // The entry then shows the config the plugin is applied with (`harness.config`).
      entry.config = resolveConfigPaths(entry.config, source.dir, plugin)
      return { plugin, file, config: entry.config }
    },
    locate: (path) => entryLocation(source, entry, path),
  }
}

/** Resolves and imports the module of `entry`. Throws `ValueProblem`. */
export async function importEntryModule(source: YamlSource, entry: EntryConfig): Promise<{ namespace: ModuleNamespace, file: string }> {
  const resolved = resolveModule(entry.use, source.dir)
  return { namespace: await importModule(resolved), file: resolved.file }
}

/** Turns a problem inside an entry into a `ConfigError` at the right line. */
export function entryError(source: YamlSource, entry: EntryConfig, code: LoaderCode, detail: string, path: ValuePath = [], cause?: unknown): ConfigError {
  return new ConfigError(code, entryLocation(source, entry, path), detail, { cause })
}

/** A `ValueProblem` of `entry` as a `ConfigError`; anything else as it is. */
export function asEntryError(source: YamlSource, entry: EntryConfig, error: unknown): unknown {
  return error instanceof ValueProblem ? entryError(source, entry, error.code, error.detail, error.path, error) : error
}

function entryLocation(source: YamlSource, entry: EntryConfig, path: ValuePath): Location {
  const line = path.length ? source.lineOf([...entry.path, ...path]) : entry.line
  return { file: source.file, line, entry: entry.label }
}
