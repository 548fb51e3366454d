/**
 * Checks an entry's config against the module's own `Config` schema before the plugin is
 * applied, so a bad value fails the load instead of leaving a plugin silently inactive.
 * Schemastery's `$.a.b expected number but got x` becomes `a.b must be a number (got "x")`
 * with the path kept for the line number; a key the object schema does not know is an error.
 */
import { LoaderCodes, ValueProblem } from './errors.js'
import { didYouMean } from './suggest.js'

type Segment = string | number

/** What a schemastery schema looks like from outside (enough to read its keys). */
interface SchemaLike {
  (value: unknown): unknown
  type?: string
  dict?: Record<string, unknown>
}

/**
 * Validates `config` with `module.Config` (or `module.schema`), when the module has one.
 * Returns nothing; throws `ValueProblem` whose path is relative to the entry's `config`.
 */
export function checkPluginConfig(module: unknown, config: unknown): void {
  const schema = schemaOf(module)
  if (!schema) return
  try {
    schema(config)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const path = schemaErrorPath(error) ?? pathInMessage(message)
    throw new ValueProblem(LoaderCodes.PLUGIN_CONFIG_INVALID, ['config', ...path], describe(message, path, config))
  }
  if (schema.type === 'object' && schema.dict && isRecord(config)) {
    const known = Object.keys(schema.dict)
    for (const key of Object.keys(config)) {
      if (!known.includes(key)) {
        throw new ValueProblem(LoaderCodes.PLUGIN_CONFIG_INVALID, ['config', key],
          `unknown config key "${key}"${didYouMean(key, known)}; valid keys: ${known.join(', ')}`)
      }
    }
  }
}

function schemaOf(module: unknown): SchemaLike | undefined {
  if (module === null || (typeof module !== 'object' && typeof module !== 'function')) return undefined
  const { Config, schema } = module as { Config?: unknown, schema?: unknown }
  const found = Config ?? (schema === false ? undefined : schema)
  return typeof found === 'function' ? found as SchemaLike : undefined
}

/** The path schemastery attaches to its `ValidationError`, when there is one. */
function schemaErrorPath(error: unknown): Segment[] | undefined {
  const path = (error as { options?: { path?: unknown } })?.options?.path
  if (!Array.isArray(path) || path.length === 0) return undefined
  return path.filter((s): s is Segment => typeof s === 'string' || typeof s === 'number')
}

/** A schema that throws its own error may still start it with schemastery's `$.a.b[0] ` prefix. */
function pathInMessage(message: string): Segment[] {
  const prefix = /^\$((?:\.[\w-]+|\[\d+\])+)\s/.exec(message)?.[1]
  if (!prefix) return []
  return [...prefix.matchAll(/\.([\w-]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]))
}

/** `maxAttempts must be a number (got "x")`, `rules[0].tool is required`, or the schema's own words after the key. */
function describe(message: string, path: Segment[], config: unknown): string {
  const key = path.length ? formatPath(path) : 'config'
  const text = message.replace(/^\$\S*\s/, '')
  const expected = /^expected (.+) but got [\s\S]*$/.exec(text)
  if (expected) return `${key} must be ${withArticle(expected[1]!)} (got ${JSON.stringify(valueAt(config, path)) ?? 'nothing'})`
  if (text === 'missing required value') return `${key} is required`
  return path.length ? `${key} ${text}` : `config: ${text}`
}

function formatPath(path: Segment[]): string {
  return path.map((s, i) => typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`).join('')
}

function withArticle(type: string): string {
  if (type.includes(' | ')) return `one of ${type}`
  if (!/^[a-z]+$/.test(type)) return type
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function valueAt(value: unknown, path: Segment[]): unknown {
  let current = value
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string | number, unknown>)[segment]
  }
  return current
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
