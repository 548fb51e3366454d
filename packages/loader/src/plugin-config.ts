/**
 * Checks an entry's config against the module's own `Config` schema before the plugin is
 * applied, so a bad value fails the load instead of leaving a plugin silently inactive.
 * Schemastery's `$.a.b expected number but got x` becomes `a.b must be a number (got "x")`
 * with the path kept for the line number. A key the schema does not know is an error at any
 * depth (`schema-keys.ts`: a misspelt `wehn:` in a rule would drop the rule's condition), and
 * so is a `__proto__`, `constructor` or `prototype` key anywhere in the config.
 */
import { LoaderCodes, ValueProblem } from './errors.js'
import { prototypeKeyDetail, prototypeKeys } from './plain-data.js'
import { unknownKey, type SchemaNode, type UnknownKey } from './schema-keys.js'
import { didYouMean } from './suggest.js'
import { formatPath } from './value-path.js'

type Segment = string | number

/**
 * Validates `config` with `module.Config` (or `module.schema`), when the module has one, then
 * looks for keys it does not know. Returns nothing; throws `ValueProblem` whose path is
 * relative to the entry's `config`. A prototype key is refused with or without a schema.
 */
export function checkPluginConfig(module: unknown, config: unknown): void {
  const [reserved] = prototypeKeys(config)
  if (reserved) throw new ValueProblem(LoaderCodes.CONFIG_INVALID, ['config', ...reserved], prototypeKeyDetail(reserved))
  const schema = schemaOf(module)
  if (!schema) return
  try {
    schema(config)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const path = schemaErrorPath(error) ?? pathInMessage(message)
    throw new ValueProblem(LoaderCodes.PLUGIN_CONFIG_INVALID, ['config', ...path], describe(message, path, config))
  }
  const unknown = unknownKey(schema, config)
  if (unknown) throw new ValueProblem(LoaderCodes.PLUGIN_CONFIG_INVALID, ['config', ...unknown.path], describeUnknown(unknown, config))
}

/**
 * `unknown config key "wehn" in rules[0] (did you mean "when"?); valid keys: tool, action, reason, when`,
 * with a hint when the key just before it is empty (a key indented one level too little).
 */
function describeUnknown({ path, known }: UnknownKey, config: unknown): string {
  const key = String(path[path.length - 1])
  const parent = path.slice(0, -1)
  const where = parent.length ? ` in ${formatPath(parent)}` : ''
  const valid = known.length ? `valid keys: ${known.join(', ')}` : 'it takes no keys'
  return `unknown config key "${key}"${where}${didYouMean(key, known)}; ${valid}${emptyKeyBefore(valueAt(config, parent), key, known)}`
}

/** `; "when" just before it is empty: if "command" belongs under "when", indent it further`, or ''. */
function emptyKeyBefore(holder: unknown, key: string, known: readonly string[]): string {
  if (!isRecord(holder)) return ''
  const keys = Object.keys(holder)
  const before = keys[keys.indexOf(key) - 1]
  if (before === undefined || !known.includes(before) || holder[before] !== null) return ''
  return `; "${before}" just before it is empty: if "${key}" belongs under "${before}", indent it further`
}

function schemaOf(module: unknown): SchemaNode | undefined {
  if (module === null || (typeof module !== 'object' && typeof module !== 'function')) return undefined
  const { Config, schema } = module as { Config?: unknown, schema?: unknown }
  const found = Config ?? (schema === false ? undefined : schema)
  return typeof found === 'function' ? found as SchemaNode : undefined
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
