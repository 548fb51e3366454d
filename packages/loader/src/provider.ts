/**
 * Builds the model provider named by the `provider` entry: its module exports
 * `createProvider(config)` (optionally with a `Config` schema, checked first), and what that
 * returns must have `generate(req)`. Every failure is a `ConfigError` naming the entry.
 */
import type { Provider } from '@rein/kernel'
import { loadEntryModule, entryError } from './build.js'
import type { EntryConfig } from './config.js'
import { LoaderCodes, ValueProblem } from './errors.js'
import { providerFactoryOf } from './modules.js'
import { checkPluginConfig } from './plugin-config.js'
import type { YamlSource } from './source.js'

/** Imports the provider module of `entry` and calls its `createProvider` with the entry's config. */
export async function loadProvider(source: YamlSource, entry: EntryConfig): Promise<Provider> {
  const { namespace } = await loadEntryModule(source, entry)
  let create: (config: unknown) => unknown
  try {
    create = providerFactoryOf(namespace)
    checkPluginConfig(namespace, entry.config)
  } catch (error) {
    if (error instanceof ValueProblem) throw entryError(source, entry, error.code, error.detail, error.path, error)
    throw error
  }
  let provider: unknown
  try {
    provider = await create(entry.config ?? {})
  } catch (error) {
    throw entryError(source, entry, LoaderCodes.PROVIDER_INVALID,
      `createProvider failed: ${error instanceof Error ? error.message : String(error)}`, [], error)
  }
  if (provider === null || typeof provider !== 'object' || typeof (provider as Provider).generate !== 'function') {
    throw entryError(source, entry, LoaderCodes.PROVIDER_INVALID, 'createProvider(config) must return a provider: an object with generate(req)')
  }
  return provider as Provider
}
