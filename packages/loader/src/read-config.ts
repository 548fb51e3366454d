/**
 * `readConfig(path)`: what a rein.yaml says, checked, for a caller that only needs its settings
 * (`rein approvals` reads `session:` from it). Nothing is imported, applied or started, and the
 * provider entry is not read, so its variables (an API key) need not be set.
 */
import { ConfigErrors } from './errors.js'
import { readHarnessConfig, type HarnessConfig } from './config.js'
import { readYaml } from './source.js'

/** Reads and checks `path`. Throws `ConfigErrors` (file, line, entry, what to do) when it has problems. */
export async function readConfig(path: string, options: { env?: Readonly<Record<string, string | undefined>> } = {}): Promise<HarnessConfig> {
  const source = await readYaml(path)
  const { config, problems } = readHarnessConfig(source, options.env ?? process.env, { ignoreProvider: true })
  if (problems.length > 0) throw new ConfigErrors(problems)
  return config
}
