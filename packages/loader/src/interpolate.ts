/**
 * The only two rewrites a config value ever gets, both on strings and both pure: `${env:NAME}`
 * becomes the variable's value (`$${env:NAME}` stays literal), and a string that is `.`, `..`
 * or starts with `./` or `../` becomes an absolute path from the config file's folder. Nothing
 * else is interpreted: no expressions, no code, no other `${...}` forms.
 */
import { resolve } from 'node:path'
import { LoaderCodes, ValueProblem } from './errors.js'
import type { ValuePath } from './source.js'

const ENV_REFERENCE = /\$(\$?)\{env:([^}]*)\}/g
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Returns a copy of `value` with every `${env:NAME}` replaced. Throws `ValueProblem` naming a missing variable. */
export function interpolateEnv(value: unknown, env: Readonly<Record<string, string | undefined>>, path: ValuePath = []): unknown {
  return mapStrings(value, path, (text, at) => text.replace(ENV_REFERENCE, (whole, escaped: string, name: string) => {
    if (escaped) return whole.slice(1)
    if (!VARIABLE_NAME.test(name)) {
      throw new ValueProblem(LoaderCodes.CONFIG_INVALID, at, `"\${env:${name}}" is not a valid variable reference; use \${env:NAME} with letters, digits and _`)
    }
    const found = env[name]
    if (found === undefined) {
      throw new ValueProblem(LoaderCodes.ENV_MISSING, at, `environment variable ${name} is not set (referenced as \${env:${name}}); set it or remove the reference`)
    }
    return found
  }))
}

/** Returns a copy of `value` with every relative path string (`.`, `..`, `./x`, `../x`) made absolute from `baseDir`. */
export function resolveRelativePaths(value: unknown, baseDir: string): unknown {
  return mapStrings(value, [], (text) => isRelativePath(text) ? resolve(baseDir, text) : text)
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
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, [...path, key], map)
    return out
  }
  return value
}
