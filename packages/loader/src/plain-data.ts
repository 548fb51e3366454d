/**
 * What a value read from a file may hold: plain data as JSON has it (null, booleans, numbers,
 * strings, lists and plain mappings), with no value that contains itself, and, in an entry's
 * config, no key that names a part of a JavaScript object (`__proto__`, `constructor`,
 * `prototype`). YAML can say more: `!!set`, `!!omap`, `!!binary` and timestamps load as a Set,
 * a Map, bytes or a Date, and an alias can make a value contain itself. A plugin's schema may
 * take such a value for something else (a Set passes for an empty mapping, so a rule's `when`
 * holds no condition), so the loader refuses it where it was written.
 */
import type { ValuePath } from './source.js'
import { formatPath } from './value-path.js'

/** Keys refused anywhere in an entry's config: they name parts of every JavaScript object, not settings. */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype']

/** A value that is not plain data: where it is, and what it is and what to write instead. */
export interface ForeignValue {
  path: ValuePath
  /** `is a YAML set (!!set), which rein does not read as config; write a plain mapping, list or string instead`. */
  detail: string
}

/** A step of the walks below: the value, its key and its parent's step, so paths are built only when reported. */
interface Visit {
  value: unknown
  key: string | number | undefined
  parent: Visit | undefined
}

/** Every value in `data` that is not plain data, in document order; a value shared by aliases is looked at once. */
export function foreignValues(data: unknown): ForeignValue[] {
  const found: ForeignValue[] = []
  const inside = new Set<object>()
  const done = new Set<object>()
  const pending: (Visit | { leave: object })[] = [{ value: data, key: undefined, parent: undefined }]
  while (pending.length) {
    const step = pending.pop()!
    if ('leave' in step) {
      inside.delete(step.leave)
      done.add(step.leave)
      continue
    }
    const { value } = step
    if (value === null || typeof value !== 'object' || done.has(value)) continue
    if (inside.has(value)) {
      found.push({ path: pathOf(step), detail: 'contains itself through a YAML alias, which no config can hold; write the value out instead' })
      continue
    }
    const foreign = foreignKind(value)
    if (foreign) {
      found.push({ path: pathOf(step), detail: foreign })
      continue
    }
    inside.add(value)
    pending.push({ leave: value })
    pushChildren(pending, step, value)
  }
  return found
}

/** The path of every `__proto__`, `constructor` or `prototype` key in `value`, in order (plain mappings and lists only). */
export function prototypeKeys(value: unknown): ValuePath[] {
  const found: ValuePath[] = []
  const seen = new Set<object>()
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }]
  while (pending.length) {
    const step = pending.pop()!
    if (typeof step.key === 'string' && PROTOTYPE_KEYS.includes(step.key)) found.push(pathOf(step))
    const current = step.value
    if (current === null || typeof current !== 'object' || seen.has(current) || foreignKind(current)) continue
    seen.add(current)
    const entries = entriesOf(current)
    for (let i = entries.length - 1; i >= 0; i--) pending.push({ value: entries[i]![1], key: entries[i]![0], parent: step })
  }
  return found
}

/** Why a config may not hold `path` (relative to the entry's config), which `prototypeKeys` found. */
export function prototypeKeyDetail(path: ValuePath): string {
  const key = String(path[path.length - 1])
  const where = path.length > 1 ? ` in ${formatPath(path.slice(0, -1))}` : ''
  return `config key "${key}"${where} is refused: ${PROTOTYPE_KEYS.join(', ')} name parts of every JavaScript object, ` +
    'not settings, so a plugin would not read it as written; remove or rename it'
}

/** What is wrong with `value` as config data, or undefined for a plain mapping or list. */
function foreignKind(value: object): string | undefined {
  const prototype = Object.getPrototypeOf(value)
  if (prototype === Object.prototype || prototype === null || prototype === Array.prototype) return undefined
  const instead = 'write a plain mapping, list or string instead'
  if (value instanceof Set) return `is a YAML set (!!set), which rein does not read as config; ${instead}`
  if (value instanceof Map) return `is an ordered mapping (!!omap), which rein does not read as config; ${instead}`
  if (value instanceof Date) return 'is a timestamp, which YAML turns into a date that rein does not read as config; quote it to keep it a string'
  if (ArrayBuffer.isView(value)) return `is binary data (!!binary), which rein does not read as config; ${instead}`
  const name = (prototype as { constructor?: { name?: unknown } } | undefined)?.constructor?.name
  return `is ${typeof name === 'string' && name ? `a ${name} object` : 'an object'} rather than plain data; ${instead}`
}

/** Queues the mappings and lists inside `value`, last first, so that they are taken in document order. */
function pushChildren(pending: { push(step: Visit): unknown }, parent: Visit, value: object): void {
  const entries = entriesOf(value)
  for (let i = entries.length - 1; i >= 0; i--) {
    const [key, item] = entries[i]!
    if (item !== null && typeof item === 'object') pending.push({ value: item, key, parent })
  }
}

function entriesOf(value: object): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value)
}

function pathOf(step: Visit): ValuePath {
  const path: (string | number)[] = []
  for (let at: Visit | undefined = step; at?.key !== undefined; at = at.parent) path.push(at.key)
  return path.reverse()
}
