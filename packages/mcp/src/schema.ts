/**
 * A server's JSON Schemas made safe for the kernel's ajv. ajv runs `pattern` and
 * `patternProperties` with JavaScript's backtracking regular expressions, so a pattern such
 * as `^(a+)+$` can block the event loop for hours on one argument (or one structured
 * result), and no timer or abort can end it. Those keywords are dropped at every depth; the
 * server checks its own input anyway. Where `patternProperties` is dropped, the
 * `additionalProperties` and `unevaluatedProperties` beside it go too, so that the names it
 * allowed are not refused. Property names and data (`const`, `enum`, `default`...) are kept.
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

/** A copy of `schema` without regular-expression keywords at any depth (the input is not changed). */
export function withoutPatterns<S>(schema: S): S {
  return strip(schema) as S
}

function strip(node: unknown): unknown {
  if (!isRecord(node)) return node
  const loosen = 'patternProperties' in node
  const kept = Object.entries(node)
    .filter(([key]) => !REGEX_KEYWORDS.has(key) && !(loosen && NAME_KEYWORDS.has(key)))
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
