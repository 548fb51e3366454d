/**
 * `@rein/loader`: a rein harness from a `rein.yaml` (`loadHarness`) or from code
 * (`createHarness`) — provider, plugins in order (first = outermost), tools, agent settings —
 * with every problem reported at once, plus what the `rein` command needs to inspect one:
 * the hook chains and the few-shot examples checked against the tools' schemas.
 */
export { loadHarness, type Harness, type LoadOptions } from './harness.js'
export { readConfig } from './read-config.js'
export { createHarness, type HarnessEntry, type HarnessOptions, type PluginValue } from './create.js'
export type { AppliedEntry, BuiltHarness } from './build.js'
export type { AgentForOptions } from './agent.js'
export { type AgentSettings, type EntryConfig, type HarnessConfig } from './config.js'
export { ConfigError, ConfigErrors, LoaderCodes, type LoaderCode, type Location } from './errors.js'
export { MAX_CONFIG_BYTES } from './source.js'
export { describeChains, formatChains, type ChainName, type ChainView } from './chains.js'
export { loadExamples, checkExamples, type ExampleItem, type ExampleProblem, type ExampleReport, type ToolCallExample } from './examples.js'
export { EXAMPLES_HEADING } from './example-render.js'
export { isLocalSpecifier, resolveModule, type ResolvedModule } from './resolve.js'
export type { OrderDeclaration, OrderRule } from './order.js'
