/**
 * Builds the model provider named by the `provider` entry: its module exports
 * `createProvider(config)` (optionally with a `Config` schema, checked first), and what that
 * returns must have `generate(req)`. Every failure is a `ConfigError` naming the entry.
 */
import type { Provider } from '@rein/kernel'
import type { EntryConfig } from './config.js'
import { LoaderCodes } from './errors.js'
import { resolveConfigPaths } from './config-paths.js'
import { asEntryError, entryError, importEntryModule } from './file-entry.js'
import { providerFactoryOf } from './modules.js'
import { checkPluginConfig } from './plugin-config.js'
import type { YamlSource } from './source.js'

/** Imports the provider module of `entry` and calls its `createProvider` with the entry's config. */
export async function loadProvider(source: YamlSource, entry: EntryConfig): Promise<Provider> {
  let create: (config: unknown) => unknown
  let config: unknown
  try {
    const { namespace } = await importEntryModule(source, entry)
    create = providerFactoryOf(namespace)
    config = entry.config = resolveConfigPaths(entry.config, source.dir, namespace)
    checkPluginConfig(namespace, config)
  } catch (error) {
    throw asEntryError(source, entry, error)
  }
  let provider: unknown
  try {
    provider = await create(config ?? {})
  } catch (error) {
    throw entryError(source, entry, LoaderCodes.PROVIDER_INVALID,
      `createProvider failed: ${error instanceof Error ? error.message : String(error)}`, [], error)
  }
  if (!isProvider(provider)) {
    throw entryError(source, entry, LoaderCodes.PROVIDER_INVALID, 'createProvider(config) must return a provider: an object with generate(req)')
  }
  return provider
}

/** Whether `value` can be used as a provider: an object with `generate`. */
export function isProvider(value: unknown): value is Provider {
  return value !== null && typeof value === 'object' && typeof (value as Provider).generate === 'function'
}
