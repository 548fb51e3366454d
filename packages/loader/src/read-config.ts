/**
 * `readConfig(path)`: what a rein.yaml says, checked, for a caller that only needs its settings
 * (`rein approvals` reads `session:` from it). Nothing is imported, applied or started, and the
 * provider entry is not read, so its variables (an API key) need not be set.
 */
import { ConfigErrors } from './errors.js'
import { readHarnessConfig, type HarnessConfig } from './config.js'
import { envRedactor, redactError } from './env-secrets.js'
import { readYaml } from './source.js'

/**
 * Reads and checks `path`. Throws `ConfigErrors` (file, line, entry, what to do) when it has
 * problems, none quoting a value that `${env:NAME}` put in (`env-secrets.ts`).
 */
export async function readConfig(path: string, options: { env?: Readonly<Record<string, string | undefined>> } = {}): Promise<HarnessConfig> {
  const source = await readYaml(path)
  const { config, problems, substituted } = readHarnessConfig(source, options.env ?? process.env, { ignoreProvider: true })
  if (problems.length > 0) throw redactError(new ConfigErrors(problems), envRedactor(substituted))
  return config
}
