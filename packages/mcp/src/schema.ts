/**
 * A server's JSON Schemas made safe for the kernel's ajv. ajv runs `pattern` and
 * `patternProperties` with JavaScript's backtracking regular expressions, so a pattern such
 * as `^(a+)+$` can block the event loop for hours on one argument (or one structured
 * result), and no timer or abort can end it. Those keywords are dropped at every depth; the
 * server checks its own input anyway. Where `patternProperties` is dropped, the
 * `additionalProperties` and `unevaluatedProperties` beside it go too, so that the names it
 * allowed are not refused. Property names and data (`const`, `enum`, `default`...) are kept.
 * A `$ref` (or `$dynamicRef`) that points into the document anywhere but at a schema this walk
 * strips (`#/x-hidden/evil`, `#/default/a`, `#/patternProperties/^x`) is dropped too: ajv follows
 * a JSON pointer wherever it leads and would compile what it finds there, patterns included.
 */

/** Keywords that run a regular expression on the value: dropped. */
const REGEX_KEYWORDS = new Set(['pattern', 'patternProperties'])
/** Keywords that judge the property names `patternProperties` covered: dropped with it. */
const NAME_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties'])
/** Keywords whose value is one schema. */
const ONE_SCHEMA = new Set(['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames',
  'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'])
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = new Set(['properties', 'definitions', '$defs', 'dependentSchemas', 'dependencies'])

/** Keywords that point at another schema: kept only when they point at one this walk strips. */
const REF_KEYWORDS = new Set(['$ref', '$dynamicRef'])

/** A copy of `schema` without regular-expression keywords at any depth (the input is not changed). */
export function withoutPatterns<S>(schema: S): S {
  return strip(schema) as S
}

function strip(node: unknown): unknown {
  if (!isRecord(node)) return node
  const loosen = 'patternProperties' in node
  const kept = Object.entries(node)
    .filter(([key, value]) => !REGEX_KEYWORDS.has(key) && !(loosen && NAME_KEYWORDS.has(key)) && !(REF_KEYWORDS.has(key) && !pointsAtSchema(value)))
    .map(([key, value]) => [key, inside(key, value)])
  // fromEntries defines own properties, so a key such as `__proto__` stays a plain key.
  return Object.fromEntries(kept)
}

/** The value of keyword `key`, with the schemas it holds stripped. */
function inside(key: string, value: unknown): unknown {
  if (Array.isArray(value)) return SCHEMA_LIST.has(key) ? value.map(strip) : value
  if (ONE_SCHEMA.has(key)) return strip(value)
  if (SCHEMA_MAP.has(key) && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, strip(schema)]))
  }
  return value
}

/**
 * Whether a reference stays among the schemas `strip` walks: a JSON pointer into this document
 * (`#/…`) whose every step is a keyword that holds schemas (then a name or an index where that
 * keyword takes one); an anchor (`#name`) or another document is not a pointer, and is left to
 * ajv (which refuses a document it cannot load).
 */
function pointsAtSchema(ref: unknown): boolean {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return true
  let steps: string[]
  try {
    steps = ref.slice(2).split('/').map((step) => decodeURIComponent(step).replaceAll('~1', '/').replaceAll('~0', '~'))
  } catch {
    return false
  }
  for (let i = 0; i < steps.length; i++) {
    const keyword = steps[i]!
    const next = steps[i + 1]
    if (ONE_SCHEMA.has(keyword)) {
      if (keyword === 'items' && next !== undefined && /^\d+$/.test(next)) i++
    } else if (SCHEMA_LIST.has(keyword)) {
      if (next === undefined || !/^\d+$/.test(next)) return false
      i++
    } else if (SCHEMA_MAP.has(keyword)) {
      if (next === undefined) return false
      i++
    } else return false
  }
  return true
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
