/**
 * `@rein/loader`: a rein harness from a `rein.yaml` — provider, plugins in file order (first =
 * outermost), tools, agent settings — plus what the `rein` command needs to inspect one:
 * the hook chains and the few-shot examples checked against the tools' schemas.
 */
export { loadHarness, type Harness, type LoadOptions } from './harness.js'
export type { AppliedEntry } from './build.js'
export { TOP_LEVEL_KEYS, type AgentSettings, type EntryConfig, type HarnessConfig } from './config.js'
export { ConfigError, LoaderCodes, formatLocation, type LoaderCode, type Location } from './errors.js'
export { describeChains, formatChains, CHAIN_NAMES, type ChainName, type ChainView } from './chains.js'
export { loadExamples, checkExamples, type ExampleProblem, type ExampleReport, type ToolCallExample } from './examples.js'
export { resolveModule, type ResolvedModule } from './resolve.js'
