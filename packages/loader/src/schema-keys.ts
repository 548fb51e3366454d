/**
 * Finds a config key that a plugin's schemastery schema does not know, at any depth.
 * Schemastery itself drops such a key without a word, so a typo (`wehn:` for `when:`) or a key
 * indented one level too little would load as a rule without its condition. The schema is
 * walked alongside the value: through `transform` and `lazy` to the schema inside; into each
 * item of an `array` or `tuple`; into each value of a `dict`, whose keys are free; across every
 * part of an `intersect` at once (a key known to one part is known); and into the branch of a
 * `union` that the value fits, when exactly one does. When several fit, which one was meant is
 * not guessed, and nothing below is checked. An `object` knows the keys of its `dict`; `any`
 * and every other type end the walk.
 */

/** A schemastery schema, as far as the walk reads it (`type`, and `inner`, `list` or `dict`). */
export interface SchemaNode {
  (value: unknown): unknown
  type?: string
  inner?: unknown
  list?: unknown[]
  dict?: Record<string, unknown>
}

/** A key the schema does not know: its path from the config's root (the key last), and the keys known there. */
export interface UnknownKey {
  path: (string | number)[]
  known: string[]
}

/** Stands for a part of a schema below which anything goes (`any`, an ambiguous union). */
const OPEN = { type: 'any' } as const

/** How deep `transform`, `lazy`, `intersect` and `union` may nest inside one another before the walk gives up on a value. */
const MAX_WRAPPING = 64

type Part = SchemaNode | typeof OPEN

/** The first key of `value` (in document order) that `schema` does not know, or undefined. */
export function unknownKey(schema: SchemaNode, value: unknown): UnknownKey | undefined {
  return walk(value, [schema], [])
}

function walk(value: unknown, schemas: unknown[], path: (string | number)[]): UnknownKey | undefined {
  if (schemas.length === 0 || value === null || typeof value !== 'object') return undefined
  const parts = schemas.flatMap((schema) => expand(schema, value, 0))
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = walk(value[index], parts.flatMap((part) => itemSchemas(part, index)), [...path, index])
      if (found) return found
    }
    return undefined
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (parts.every((part) => part.type === 'object')) {
    const known = [...new Set(parts.flatMap((part) => Object.keys((part as SchemaNode).dict ?? {})))]
    const key = keys.find((candidate) => !known.includes(candidate))
    if (key !== undefined) return { path: [...path, key], known }
  }
  for (const key of keys) {
    const found = walk(record[key], parts.flatMap((part) => valueSchemas(part, key)), [...path, key])
    if (found) return found
  }
  return undefined
}

/** The schemas that `value` is held to by `schema`, with wrappers taken off and the union's branch chosen. */
function expand(schema: unknown, value: unknown, depth: number): Part[] {
  if (!isSchema(schema) || depth > MAX_WRAPPING) return [OPEN]
  switch (schema.type) {
    case 'transform':
    case 'lazy':
      return expand(schema.inner, value, depth + 1)
    case 'intersect': {
      const list = schema.list ?? []
      return list.length ? list.flatMap((part) => expand(part, value, depth + 1)) : [OPEN]
    }
    case 'union': {
      const fitting = (schema.list ?? []).filter((branch) => fits(branch, value))
      return fitting.length === 1 ? expand(fitting[0], value, depth + 1) : [OPEN]
    }
    default:
      return [schema]
  }
}

function itemSchemas(part: Part, index: number): unknown[] {
  if (part.type === 'array') return [(part as SchemaNode).inner]
  const list = (part as SchemaNode).list
  return part.type === 'tuple' && list && index < list.length ? [list[index]] : []
}

function valueSchemas(part: Part, key: string): unknown[] {
  const { type, dict, inner } = part as SchemaNode
  if (type === 'object') return dict && Object.hasOwn(dict, key) ? [dict[key]] : []
  return type === 'dict' ? [inner] : []
}

/** Whether `branch` accepts `value`; it is given a copy, as schemastery may write into what it checks. */
function fits(branch: unknown, value: unknown): boolean {
  if (!isSchema(branch)) return false
  try {
    branch(copyData(value, new Map()))
    return true
  } catch {
    return false
  }
}

function isSchema(value: unknown): value is SchemaNode {
  return typeof value === 'function' && typeof (value as SchemaNode).type === 'string'
}

/** A copy of the plain mappings and lists in `value` (every key kept as own data); anything else is shared. */
function copyData(value: unknown, copies: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value
  const done = copies.get(value)
  if (done !== undefined) return done
  if (Array.isArray(value)) {
    const out: unknown[] = []
    copies.set(value, out)
    for (const item of value) out.push(copyData(item, copies))
    return out
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const out: Record<string, unknown> = {}
  copies.set(value, out)
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, key, { value: copyData(item, copies), enumerable: true, writable: true, configurable: true })
  }
  return out
}
