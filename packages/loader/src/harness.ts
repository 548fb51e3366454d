/**
 * `loadHarness(path)`: a rein.yaml becomes a running Context with the kernel, the plugins
 * and tools in file order, a provider and a lazily built agent. The file is only read. Each
 * load creates its own Context, so two harnesses in one process share nothing but the
 * imported modules; `dispose()` removes everything the harness registered.
 */
import type { Context } from 'cordis'
import type { Provider } from '@rein/kernel'
import type { Agent, SessionStore } from '@rein/agent'
import { importAgentModule, lazyAgent } from './agent.js'
import { buildContext, type AppliedEntry } from './build.js'
import { readHarnessConfig, type HarnessConfig } from './config.js'
import { loadProvider } from './provider.js'
import { readYaml } from './source.js'

/** Options of `loadHarness`. */
export interface LoadOptions {
  /** A provider built in code; overrides the file's `provider` entry (which is then not loaded). */
  provider?: Provider
  /** Where `${env:NAME}` looks; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
  /** A session store built in code (the caller closes it); overrides the file's `session` path. */
  session?: SessionStore
}

/** A loaded harness. */
export interface Harness {
  /** The cordis Context: `ctx.tools` is the kernel. */
  ctx: Context
  /** The agent loop; built on first read. Throws `ConfigError` when there is no provider or no `createAgent`. */
  readonly agent: Agent
  /** The checked config, with absolute paths. */
  config: HarnessConfig
  /** The provider in use, when there is one. */
  provider: Provider | undefined
  /** The plugin and tool entries, in the order they were applied. */
  entries: AppliedEntry[]
  /**
   * Removes the agent, every plugin, tool and hook (innermost first), stops the Context and
   * closes a session opened from the file's `session` path. Idempotent.
   */
  dispose(): Promise<void>
}

/**
 * Loads `path`. Throws `ConfigError` (file, line, entry, what to do) on the first problem,
 * after stopping anything it had started.
 */
export async function loadHarness(path: string, options: LoadOptions = {}): Promise<Harness> {
  const source = await readYaml(path)
  const config = readHarnessConfig(source, options.env ?? process.env, { ignoreProvider: options.provider !== undefined })
  const providerEntry = options.provider ? undefined : config.provider
  const [provider, built, agentModule] = await Promise.allSettled([
    providerEntry ? loadProvider(source, providerEntry) : Promise.resolve(options.provider),
    buildContext(source, [...config.plugins, ...config.tools]),
    importAgentModule(),
  ])
  if (provider.status === 'rejected' || built.status === 'rejected') {
    if (built.status === 'fulfilled') await built.value.ctx.stop()
    throw provider.status === 'rejected' ? provider.reason : (built as PromiseRejectedResult).reason
  }
  const { ctx, applied } = built.value
  const agent = lazyAgent({
    ctx,
    file: config.file,
    settings: config.agent,
    provider: provider.value,
    session: options.session,
    sessionPath: config.session,
    module: agentModule.status === 'fulfilled' ? agentModule.value : new Error(String(agentModule.reason)),
  })
  let disposed: Promise<void> | undefined
  return {
    ctx,
    get agent() { return agent.get() },
    config,
    provider: provider.value,
    entries: applied,
    dispose: () => disposed ??= (async () => {
      await agent.dispose()
      for (const { fork } of [...applied].reverse()) fork.dispose()
      await ctx.stop()
    })(),
  }
}
