/**
 * `loadHarness(path)`: a rein.yaml becomes a running Context with the kernel, the plugins
 * and tools in file order, a provider and a lazily built agent (and, with `agentFor(session)`,
 * a new agent per session on the same Context, for a process that runs many sessions). The
 * file is only read. Every problem in it is reported at once, as `ConfigErrors` in file order.
 * Each load creates its own Context, so two harnesses in one process share nothing but the
 * imported modules; `dispose()` removes everything the harness registered.
 */
import { basename } from 'node:path'
import type { Provider } from '@rein/kernel'
import type { SessionStore } from '@rein/agent'
import { buildHarness, type BuiltHarness } from './build.js'
import { readHarnessConfig, type HarnessConfig } from './config.js'
import { envRedactor, redactError, redactHarness } from './env-secrets.js'
import type { ConfigError } from './errors.js'
import { readPromptSources } from './examples.js'
import { fileEntryPlan } from './file-entry.js'
import { loadProvider } from './provider.js'
import { readYaml, type YamlSource } from './source.js'
import { DEFAULT_STARTUP_TIMEOUT_MS } from './startup-deadline.js'

/** Options of `loadHarness`. */
export interface LoadOptions {
  /** A provider built in code; overrides the file's `provider` entry (which is then not loaded). */
  provider?: Provider
  /** Where `${env:NAME}` looks; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
  /** A session store built in code (the caller closes it); overrides the file's `session` path. */
  session?: SessionStore
  /**
   * For callers that only inspect the harness (`rein chains`, `rein check`): everything is
   * loaded and applied as usual, the file's provider included unless `provider` is given, but
   * `@rein/agent` is not imported, and reading `agent` or calling `agentFor` throws
   * `AGENT_UNAVAILABLE`. Default false. (Without a provider the module is not imported either.)
   */
  inspectOnly?: boolean
}

/** A harness loaded from a file. */
export interface Harness extends BuiltHarness {
  /** The checked config: each entry's config as its plugin was applied with it (its paths absolute). */
  config: HarnessConfig
}

/**
 * Loads `path`. Throws `ConfigErrors` (one `ConfigError` per problem: file, line, entry, what
 * to do) after stopping anything it had started. An `optional` entry that fails is left out
 * and reported in `warnings`. No error or warning quotes a value that `${env:NAME}` put in
 * (`env-secrets.ts`).
 */
export async function loadHarness(path: string, options: LoadOptions = {}): Promise<Harness> {
  const source = await readYaml(path)
  const { config, problems, substituted } = readHarnessConfig(source, options.env ?? process.env, { ignoreProvider: options.provider !== undefined })
  // What the variables put in is kept out of every error and warning from here on.
  const redact = envRedactor(substituted)
  try {
    const harness = await buildFromFile(source, config, problems, options)
    if (redact !== undefined) redactHarness(harness, config, redact)
    return Object.assign(harness, { config })
  } catch (error) {
    throw redactError(error, redact)
  }
}

/** Builds the harness `config` describes, with the problems already found in it. */
async function buildFromFile(source: YamlSource, config: HarnessConfig, problems: readonly ConfigError[], options: LoadOptions): Promise<BuiltHarness> {
  const providerEntry = config.provider
  return buildHarness({
    entries: [...config.plugins, ...config.tools].map((entry) => fileEntryPlan(source, entry)),
    problems,
    provider: async () => providerEntry ? loadProvider(source, providerEntry) : options.provider,
    agent: {
      file: config.file, builder: 'loadHarness', settings: config.agent, session: options.session, sessionPath: config.session,
      prompt: await readPromptSources(config), inspectOnly: options.inspectOnly === true,
    },
    startup: { ms: config.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS, setting: `startupTimeoutMs at the top level of ${basename(config.file)}` },
  })
}
