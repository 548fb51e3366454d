/**
 * The kernel's `compileSchema` for a harness the loader only inspects (`rein chains`, `rein
 * check`): a schema is compiled on first use, so ajv never loads, after a cheap structural
 * check at `register` that ajv will accept it. It answers one question: is this schema *certainly*
 * accepted by ajv (its meta-schema, draft-07 or 2020-12, and its compile-time rules, with
 * `strict: false` and ajv-formats)? Everything it cannot vouch for — an unfamiliar keyword
 * ajv knows, a `$ref` that is not a local JSON pointer, an `$id`, a value it is unsure of —
 * answers `false`, and the caller compiles the schema with ajv at once, so an invalid schema
 * still fails at registration with ajv's own message. It never loads anything and changes
 * nothing; `true` is a promise that `ajv.compile` will not throw.
 */

import type { SchemaCompile, Validator } from '@rein/kernel'

/**
 * Defers the compile of a schema the structural check vouches for to its first use; compiles
 * any other one now, so an invalid schema still throws ajv's own message at `register`.
 */
export const compileOnFirstUse: SchemaCompile = (schema, compile) => {
  if (!certainlyCompiles(schema)) return compile(schema)
  let validate: Validator | undefined
  return (value) => (validate ??= compileChecked(schema, compile))(value)
}

/** Should ajv still refuse a schema the check vouched for (a gap in it), every value says so. */
export function compileChecked(schema: object, compile: (schema: object) => Validator): Validator {
  try {
    return compile(schema)
  } catch (error) {
    const line = `the schema could not be compiled (${(error as Error).message}); the tool's author must fix it`
    return () => [line]
  }
}

/** The `$schema` values the kernel's two ajv instances know (ajv strips a trailing `#`). */
const DIALECTS = new Set([
  'http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#',
])

/** ajv-formats' formats: any other name makes ajv warn at compile time, so it is left to ajv. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template',
  'url', 'email', 'hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment',
  'relative-json-pointer', 'byte', 'int32', 'int64', 'float', 'double', 'password', 'binary',
])

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'])

/** A local JSON pointer written as a URI fragment (`#`, `#/$defs/item`), the only `$ref` vouched for. */
const LOCAL_POINTER = /^#(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*$/

type Kind =
  | 'schema' | 'schemaList' | 'schemaMap' | 'patternMap' | 'items' | 'dependencies' | 'stringArrayMap'
  | 'number' | 'positive' | 'count' | 'boolean' | 'string' | 'regex' | 'type' | 'enum' | 'strings' | 'array'
  | 'format' | 'ref' | 'any'

/**
 * Keywords of either meta-schema or of ajv's vocabularies, with what their value must be.
 * `undefined` marks one the check leaves to ajv (its rules are subtle or rarely used).
 * A keyword missing here is unknown to ajv, which ignores it under `strict: false`.
 */
export const KEYWORDS: Readonly<Record<string, Kind | undefined>> = {
  $schema: undefined, $id: undefined, id: undefined, $async: undefined, nullable: undefined, $anchor: undefined,
  $dynamicAnchor: undefined, $dynamicRef: undefined, $recursiveAnchor: undefined, $recursiveRef: undefined,
  $vocabulary: undefined, discriminator: undefined, formatMaximum: undefined, formatMinimum: undefined,
  formatExclusiveMaximum: undefined, formatExclusiveMinimum: undefined,
  $ref: 'ref', $comment: 'string', title: 'string', description: 'string', default: 'any', const: 'any',
  examples: 'array', readOnly: 'boolean', writeOnly: 'boolean', deprecated: 'boolean',
  type: 'type', enum: 'enum', format: 'format', contentMediaType: 'string', contentEncoding: 'string',
  multipleOf: 'positive', maximum: 'number', minimum: 'number', exclusiveMaximum: 'number', exclusiveMinimum: 'number',
  maxLength: 'count', minLength: 'count', maxItems: 'count', minItems: 'count', maxProperties: 'count',
  minProperties: 'count', maxContains: 'count', minContains: 'count',
  pattern: 'regex', uniqueItems: 'boolean', required: 'strings', dependentRequired: 'stringArrayMap',
  not: 'schema', if: 'schema', then: 'schema', else: 'schema', contains: 'schema', propertyNames: 'schema',
  additionalProperties: 'schema', additionalItems: 'schema', unevaluatedProperties: 'schema',
  unevaluatedItems: 'schema', contentSchema: 'schema',
  allOf: 'schemaList', anyOf: 'schemaList', oneOf: 'schemaList', prefixItems: 'schemaList',
  properties: 'schemaMap', definitions: 'schemaMap', $defs: 'schemaMap', dependentSchemas: 'schemaMap',
  patternProperties: 'patternMap', items: 'items', dependencies: 'dependencies',
}

/** Thrown inside the walk when the check cannot vouch for a value. */
class Unsure extends Error {}

/** Whether ajv will certainly compile `schema` (a structured clone: plain JSON data). */
export function certainlyCompiles(schema: unknown): boolean {
  // A boolean schema is left to ajv too, which the kernel refuses at the root.
  if (!isPlainObject(schema)) return false
  const dialect = schema.$schema
  if (dialect !== undefined && !(typeof dialect === 'string' && DIALECTS.has(dialect))) return false
  const walk = new Walk(typeof dialect === 'string' && dialect.includes('2020-12'))
  try {
    walk.schema(schema, [], true)
    return walk.refsResolve()
  } catch {
    // Unsure, or a schema too deep to walk: ajv decides.
    return false
  }
}

/** One pass over a schema: checks every keyword it knows and collects the local `$ref`s. */
class Walk {
  /** The JSON pointer (as a key) of every place checked as a schema. */
  private readonly places = new Set<string>()
  private readonly refs: string[] = []

  constructor(private readonly draft2020: boolean) {}

  schema(node: unknown, path: string[], root = false): void {
    this.places.add(JSON.stringify(path))
    if (typeof node === 'boolean') return
    if (!isPlainObject(node)) throw new Unsure()
    for (const key of Object.keys(node)) {
      if (key === '$schema' && root) continue
      const value = node[key]
      if (!Object.hasOwn(KEYWORDS, key)) {
        plainJson(value)
        continue
      }
      const kind = KEYWORDS[key]
      if (kind === undefined) throw new Unsure()
      this.keyword(kind, value, [...path, key])
    }
  }

  private keyword(kind: Kind, value: unknown, path: string[]): void {
    switch (kind) {
      case 'schema': return this.schema(value, path)
      case 'schemaList': return this.list(value, path)
      case 'schemaMap': return this.map(value, path, () => {})
      case 'patternMap': return this.map(value, path, regex)
      case 'items':
        if (Array.isArray(value) && !this.draft2020) return this.list(value, path)
        return this.schema(value, path)
      case 'dependencies':
        if (!isPlainObject(value)) throw new Unsure()
        for (const key of Object.keys(value)) {
          const item = value[key]
          if (Array.isArray(item)) uniqueStrings(item)
          else this.schema(item, [...path, key])
        }
        return
      case 'stringArrayMap':
        if (!isPlainObject(value)) throw new Unsure()
        for (const key of Object.keys(value)) uniqueStrings(value[key])
        return
      case 'ref':
        if (typeof value !== 'string' || !LOCAL_POINTER.test(value)) throw new Unsure()
        this.refs.push(value)
        return
      default: return checkValue(kind, value)
    }
  }

  private list(value: unknown, path: string[]): void {
    if (!Array.isArray(value) || value.length === 0) throw new Unsure()
    value.forEach((item, index) => this.schema(item, [...path, String(index)]))
  }

  private map(value: unknown, path: string[], checkKey: (key: string) => void): void {
    if (!isPlainObject(value)) throw new Unsure()
    for (const key of Object.keys(value)) {
      checkKey(key)
      this.schema(value[key], [...path, key])
    }
  }

  /** Every `$ref` names a place that was checked as a schema (ajv would compile anything it finds there). */
  refsResolve(): boolean {
    return this.refs.every((ref) => {
      const tokens = ref.slice(1).split('/').slice(1).map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'))
      return this.places.has(JSON.stringify(tokens))
    })
  }
}

function checkValue(kind: Exclude<Kind, 'schema' | 'schemaList' | 'schemaMap' | 'patternMap' | 'items' | 'dependencies' | 'stringArrayMap' | 'ref'>, value: unknown): void {
  switch (kind) {
    case 'number': if (!Number.isFinite(value)) throw new Unsure(); return
    case 'positive': if (!(Number.isFinite(value) && (value as number) > 0)) throw new Unsure(); return
    case 'count': if (!(Number.isInteger(value) && (value as number) >= 0)) throw new Unsure(); return
    case 'boolean': if (typeof value !== 'boolean') throw new Unsure(); return
    case 'string': if (typeof value !== 'string') throw new Unsure(); return
    case 'regex': return regex(value)
    case 'format': if (typeof value !== 'string' || !KNOWN_FORMATS.has(value)) throw new Unsure(); return
    case 'strings': return uniqueStrings(value)
    case 'array': if (!Array.isArray(value)) throw new Unsure(); return plainJson(value)
    case 'any': return plainJson(value)
    case 'type':
      if (typeof value === 'string') {
        if (!SIMPLE_TYPES.has(value)) throw new Unsure()
        return
      }
      if (!Array.isArray(value) || value.length === 0) throw new Unsure()
      for (const type of value) if (typeof type !== 'string' || !SIMPLE_TYPES.has(type)) throw new Unsure()
      return uniqueStrings(value)
    case 'enum':
      if (!Array.isArray(value) || value.length === 0) throw new Unsure()
      plainJson(value)
      return distinct(value)
    default: throw new Error(`unhandled keyword kind ${JSON.stringify(kind satisfies never)}`)
  }
}

/** A pattern as ajv compiles it (`u` flag), and as its meta-schema's `regex` format accepts it. */
function regex(value: unknown): void {
  if (typeof value !== 'string' || /[^\\]\\Z/.test(value)) throw new Unsure()
  new RegExp(value, 'u')
}

function uniqueStrings(value: unknown): void {
  if (!Array.isArray(value)) throw new Unsure()
  for (const item of value) if (typeof item !== 'string') throw new Unsure()
  if (new Set(value).size !== value.length) throw new Unsure()
}

/** No two items deeply equal (the meta-schema's `uniqueItems`). */
function distinct(items: readonly unknown[]): void {
  const primitives = new Set<string>()
  const composites: unknown[] = []
  for (const item of items) {
    if (typeof item === 'object' && item !== null) {
      if (composites.some((seen) => jsonEqual(seen, item))) throw new Unsure()
      composites.push(item)
    } else {
      const key = `${typeof item}:${String(item)}`
      if (primitives.has(key)) throw new Unsure()
      primitives.add(key)
    }
  }
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

/** Keys ajv reads in every nested object, keyword or not (its `$id` and anchor scan). */
const SCANNED_KEYS = ['$id', '$anchor', '$dynamicAnchor']

/**
 * Plain JSON data all the way down: no `undefined`, no non-finite number, no class instance,
 * and no key that ajv's scan for ids and anchors would act on.
 */
function plainJson(value: unknown): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Unsure()
    return
  }
  if (Array.isArray(value)) {
    for (const item of value) plainJson(item)
    return
  }
  if (!isPlainObject(value) || SCANNED_KEYS.some((key) => Object.hasOwn(value, key))) throw new Unsure()
  for (const key of Object.keys(value)) plainJson(value[key])
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(value, '__proto__')
}
