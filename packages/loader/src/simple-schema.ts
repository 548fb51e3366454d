/**
 * The kernel's `compileSchema` for a harness that runs calls: most tool schemas are a flat
 * object of typed properties, and for those a value ajv would accept is recognised here
 * without loading ajv (loading it and compiling its meta-schema is ~150 ms of a cold start).
 * The guarantee is one-sided: `acceptorOf(schema)(value)` answers `true` only for a value ajv
 * accepts; `false` means "ask ajv", which is then compiled once and words the rejection (or
 * accepts the value after all). A schema outside the subset below, or one `certainlyCompiles`
 * does not vouch for, is compiled by ajv at `register` as before.
 * Guarded by `test/simple-schema.test.ts` (a property against ajv) and the peer bench's `cold.mjs`.
 */
import type { SchemaCompile, Validator } from '@rein/kernel'
import { certainlyCompiles, compileChecked, KEYWORDS } from './schema-shape.js'

/** Whether a value is certainly valid; `false` leaves the answer to ajv. */
export type Accept = (value: unknown) => boolean

/** Keywords ajv only reads as annotations (no `useDefaults`): they never reject a value. */
const ANNOTATIONS = new Set(['$comment', 'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly',
  'deprecated', 'contentMediaType', 'contentEncoding'])

/** Every keyword this module checks, or that cannot reject; any other ajv keyword sends the schema to ajv. */
const UNDERSTOOD = new Set([...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties', 'items', 'enum',
  'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'pattern'])

const TYPES: Readonly<Record<string, Accept>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
}

/**
 * Answers with ajv's acceptance where it can, and compiles the schema with ajv only when a value
 * is not certainly valid. Every other schema is compiled now, so an invalid one still throws at `register`.
 */
export const compileSimpleFirst: SchemaCompile = (schema, compile) => {
  const accept = certainlyCompiles(schema) ? acceptorOf(schema) : undefined
  if (accept === undefined) return compile(schema)
  let ajv: Validator | undefined
  return (value) => accept(value) ? undefined : (ajv ??= compileChecked(schema, compile))(value)
}

/**
 * The acceptor of a schema `certainlyCompiles` vouched for, or `undefined` when it uses a keyword
 * of ajv's outside the subset. Keywords ajv does not know are ignored, as ajv ignores them.
 */
export function acceptorOf(schema: object, root = true): Accept | undefined {
  if (typeof schema === 'boolean') return schema ? ALWAYS : undefined
  const node = schema as Record<string, unknown>
  const checks: Accept[] = []
  for (const key of Object.keys(node)) {
    if (key === '$schema' && root) continue
    if (ANNOTATIONS.has(key)) continue
    if (!UNDERSTOOD.has(key)) {
      if (Object.hasOwn(KEYWORDS, key)) return undefined
      continue
    }
    const check = keywordCheck(key, node[key], node)
    if (check === undefined) return undefined
    if (check !== ALWAYS) checks.push(check)
  }
  if (checks.length === 0) return ALWAYS
  if (checks.length === 1) return checks[0]
  return (value) => {
    for (const check of checks) if (!check(value)) return false
    return true
  }
}

const ALWAYS: Accept = () => true

/** The check of one keyword; a keyword about one type passes values of any other type, as in ajv. */
function keywordCheck(key: string, value: unknown, node: Record<string, unknown>): Accept | undefined {
  switch (key) {
    case 'type': {
      const types = (Array.isArray(value) ? value : [value]).map((type) => TYPES[type as string])
      return types.length === 1 ? types[0] : (v) => types.some((is) => is(v))
    }
    case 'enum': case 'const': {
      const allowed = key === 'enum' ? value as unknown[] : [value]
      if (!allowed.every((item) => item === null || typeof item !== 'object')) return undefined
      return (v) => allowed.includes(v)
    }
    case 'minimum': return onNumber((v) => v >= (value as number))
    case 'maximum': return onNumber((v) => v <= (value as number))
    case 'exclusiveMinimum': return onNumber((v) => v > (value as number))
    case 'exclusiveMaximum': return onNumber((v) => v < (value as number))
    case 'minLength': return onString((v) => codePoints(v, value as number) >= (value as number))
    case 'maxLength': return onString((v) => v.length <= (value as number) || codePoints(v, value as number) <= (value as number))
    case 'pattern': {
      const pattern = new RegExp(value as string, 'u')
      return onString((v) => pattern.test(v))
    }
    case 'minItems': return onArray((v) => v.length >= (value as number))
    case 'maxItems': return onArray((v) => v.length <= (value as number))
    case 'items': {
      if (Array.isArray(value)) return undefined
      const item = acceptorOf(value as object, false)
      // An index loop, not `every`: ajv reads a hole of a sparse array as `undefined`.
      return item && onArray((v) => {
        for (let i = 0; i < v.length; i++) if (!item(v[i])) return false
        return true
      })
    }
    case 'properties': return propertiesCheck(value as Record<string, object>)
    case 'required': {
      const names = value as string[]
      return onObject((v) => names.every((name) => v[name] !== undefined))
    }
    case 'additionalProperties': return additionalCheck(value, node.properties as Record<string, unknown> | undefined)
    default: throw new Error(`unhandled keyword ${key}`)
  }
}

/** ajv checks a property that reads as anything but `undefined` (inherited ones too), so this does. */
function propertiesCheck(properties: Record<string, object>): Accept | undefined {
  const each: [string, Accept][] = []
  for (const name of Object.keys(properties)) {
    const accept = acceptorOf(properties[name], false)
    if (accept === undefined) return undefined
    if (accept !== ALWAYS) each.push([name, accept])
  }
  return onObject((v) => each.every(([name, accept]) => v[name] === undefined || accept(v[name])))
}

/** Every key `for...in` finds that `properties` does not list, as ajv walks them. */
function additionalCheck(value: unknown, properties: Record<string, unknown> | undefined): Accept | undefined {
  const listed = new Set(Object.keys(properties ?? {}))
  if (value === true) return ALWAYS
  const accept = value === false ? () => false : acceptorOf(value as object, false)
  if (accept === undefined) return undefined
  return onObject((v) => {
    for (const key in v) if (!listed.has(key) && !accept(v[key])) return false
    return true
  })
}

/** Counts code points as ajv's `ucs2length` does (a surrogate pair is one), stopping past `enough`. */
function codePoints(text: string, enough: number): number {
  let count = 0
  for (const _ of text) if (++count > enough) break
  return count
}

const onNumber = (check: (v: number) => boolean): Accept => (v) => typeof v !== 'number' || check(v)
const onString = (check: (v: string) => boolean): Accept => (v) => typeof v !== 'string' || check(v)
const onArray = (check: (v: unknown[]) => boolean): Accept => (v) => !Array.isArray(v) || check(v)
const onObject = (check: (v: Record<string, unknown>) => boolean): Accept =>
  (v) => typeof v !== 'object' || v === null || Array.isArray(v) || check(v as Record<string, unknown>)
