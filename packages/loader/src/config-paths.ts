/**
 * Which strings of an entry's config are file paths, resolved against the config file's folder.
 * By default every string that is `.`, `..` or starts with `./` or `../`. A module whose config
 * holds patterns rather than paths says so with `configPaths`, the top-level config keys whose
 * strings are paths (`[]`: none): a permission rule's glob `./.env` must stay the glob as
 * written, not become `/home/me/project/.env`, which no argument the model sends would match.
 */
import { LoaderCodes, ValueProblem } from './errors.js'
import { resolveRelativePaths } from './interpolate.js'

/**
 * `config` with its relative paths resolved from `baseDir`, where `module` (a plugin or a
 * provider module) says its paths are. Throws `ValueProblem` for a malformed `configPaths`.
 */
export function resolveConfigPaths(config: unknown, baseDir: string, module: unknown): unknown {
  if (config === undefined) return undefined
  return resolveRelativePaths(config, baseDir, configPathsOf(module))
}

/** The module's `configPaths`, or undefined when it does not declare one. */
export function configPathsOf(module: unknown): readonly string[] | undefined {
  if (module === null || (typeof module !== 'object' && typeof module !== 'function')) return undefined
  const declared: unknown = (module as { configPaths?: unknown }).configPaths
  if (declared === undefined) return undefined
  if (!Array.isArray(declared) || !declared.every((key) => typeof key === 'string')) {
    throw new ValueProblem(LoaderCodes.PLUGIN_CONFIG_INVALID, [],
      `the module's configPaths must be a list of top-level config keys whose strings are file paths (got ${JSON.stringify(declared)}); export [] when none are`)
  }
  return declared
}
