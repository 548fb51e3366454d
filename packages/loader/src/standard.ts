/**
 * The standard rein packages a `use:` may name. The loader depends on each of them, so they
 * resolve out of the box; these names are what a misspelt package is compared with, and the
 * packages whose plugins are recognised when a harness is built in code.
 */

export const STANDARD_PACKAGES = [
  '@rein/plugin-audit',
  '@rein/plugin-cache',
  '@rein/plugin-retry',
  '@rein/plugin-timeout-policy',
  '@rein/plugin-permission-guard',
  '@rein/plugin-spill',
  '@rein/plugin-otel',
  '@rein/plugin-budget',
  '@rein/tools-fs',
  '@rein/tools-shell',
  '@rein/tool-run-code',
  '@rein/mcp',
  '@rein/provider-openai',
  '@rein/provider-anthropic',
] as const
