/**
 * The only two rewrites a config value ever gets, both on strings and both pure: `${env:NAME}`
 * becomes the variable's value (`$${env:NAME}` stays literal), and a string that is `.`, `..`
 * or starts with `./` or `../` becomes an absolute path from the config file's folder. Nothing
 * else is interpreted: no expressions, no code, no other `${...}` forms. Copies keep every key
 * as own data (a `__proto__` key stays a key, never a prototype).
 */
import { resolve } from 'node:path'
import { LoaderCodes, ValueProblem } from './errors.js'
import type { ValuePath } from './source.js'

const ENV_REFERENCE = /\$(\$?)\{env:([^}]*)\}/g
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Returns a copy of `value` with every `${env:NAME}` replaced. A bad or missing variable is a
 * `ValueProblem` at its path: thrown, or, when `problems` is given, added to it (every one is
 * found; the reference is then left as written). Each value put in is added to `substituted`,
 * when given, so that the caller can keep it out of its errors (`env-secrets.ts`).
 */
export function interpolateEnv(
  value: unknown, env: Readonly<Record<string, string | undefined>>, path: ValuePath = [], problems?: ValueProblem[],
  substituted?: Set<string>,
): unknown {
  const problem = (found: ValueProblem, whole: string): string => {
    if (!problems) throw found
    problems.push(found)
    return whole
  }
  return mapStrings(value, path, (text, at) => text.replace(ENV_REFERENCE, (whole, escaped: string, name: string) => {
    if (escaped) return whole.slice(1)
    if (!VARIABLE_NAME.test(name)) {
      return problem(new ValueProblem(LoaderCodes.CONFIG_INVALID, at,
        `"\${env:${name}}" is not a valid variable reference; use \${env:NAME} with letters, digits and _`), whole)
    }
    const found = env[name]
    if (found === undefined) {
      return problem(new ValueProblem(LoaderCodes.ENV_MISSING, at,
        `environment variable ${name} is not set (referenced as \${env:${name}}); set it or remove the reference`), whole)
    }
    substituted?.add(found)
    return found
  }))
}

/**
 * Returns a copy of `value` with every relative path string (`.`, `..`, `./x`, `../x`) made
 * absolute from `baseDir`; with `keys`, only those under these top-level keys of an object.
 */
export function resolveRelativePaths(value: unknown, baseDir: string, keys?: readonly string[]): unknown {
  const resolveText = (text: string) => isRelativePath(text) ? resolve(baseDir, text) : text
  if (keys === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return keys === undefined ? mapStrings(value, [], resolveText) : value
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const mapped = keys.includes(key) ? mapStrings(item, [key], resolveText) : item
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** Whether `text` is a path relative to the config file's folder, in the sense of this module. */
export function isRelativePath(text: string): boolean {
  return text === '.' || text === '..' || text.startsWith('./') || text.startsWith('../')
}

function mapStrings(value: unknown, path: ValuePath, map: (text: string, path: ValuePath) => string): unknown {
  if (typeof value === 'string') return map(value, path)
  if (Array.isArray(value)) return value.map((item, index) => mapStrings(item, [...path, index], map))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      const mapped = mapStrings(item, [...path, key], map)
      if (key === '__proto__') Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true })
      else out[key] = mapped
    }
    return out
  }
  return value
}
