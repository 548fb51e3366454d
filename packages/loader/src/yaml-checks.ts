/**
 * The checks the YAML parser is not asked to make, made here in time linear in the file:
 * no mapping repeats a key (the parser's own check compares each key with every earlier one,
 * which takes seconds on a mapping of tens of thousands of keys), and, when the parser refuses
 * to expand the aliases (its guard against "billion laughs" files), which alias crossed the
 * limit. The key index built on the way also answers `lineOf` without scanning a mapping.
 */
import type { Alias, Document, Node, Pair, YAMLMap } from 'yaml'
import { yaml } from './yaml-library.js'

/** Each mapping's pairs by key, the key spelled as it is in the loaded value. */
export type KeyIndex = WeakMap<YAMLMap, Map<string, Pair>>

/** A key written twice in one mapping. */
export interface DuplicateKey {
  key: string
  /** The second (or later) occurrence. */
  pair: Pair
  /** The first occurrence. */
  first: Pair
}

/**
 * Indexes every mapping's keys and lists the repeated ones. Aliases are not followed into
 * values; a key written as an alias (`*d : allow` after `&d default: deny`) is the key it
 * names, and a collection key is compared by its content, so neither can repeat a key unseen.
 */
export function indexKeys(doc: Document): { index: KeyIndex, duplicates: DuplicateKey[] } {
  const { isMap, isPair, isSeq } = yaml()
  const index: KeyIndex = new WeakMap()
  const duplicates: DuplicateKey[] = []
  const pending: unknown[] = [doc.contents]
  while (pending.length) {
    const node = pending.pop()
    if (isMap(node)) {
      const keys = new Map<string, Pair>()
      index.set(node, keys)
      for (const pair of node.items) {
        pending.push(pair.key, pair.value)
        const key = keyText(pair.key) ?? repeatableKey(doc, pair.key)
        if (key === undefined) continue
        const first = keys.get(key)
        if (first) duplicates.push({ key, pair, first })
        else keys.set(key, pair)
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (isPair(item)) pending.push(item.key, item.value)
        else pending.push(item)
      }
    }
  }
  return { index, duplicates }
}

/**
 * What an alias or a collection key is compared by: the key an alias names (its scalar, or a
 * collection's content), a collection by its content (after a NUL, which no scalar key holds
 * here, so `? [a]` never meets the key `["a"]`). Undefined for an alias that names nothing.
 */
function repeatableKey(doc: Document, key: unknown): string | undefined {
  const { isAlias, isCollection } = yaml()
  const named = isAlias(key) ? key.resolve(doc) : key
  if (named !== key) return keyText(named) ?? repeatableKey(doc, named)
  return isCollection(key) ? `\0${JSON.stringify(key.toJSON())}` : undefined
}

/** A scalar key as the loaded object spells it (`null` becomes ''); undefined for a collection key. */
export function keyText(key: unknown): string | undefined {
  if (!yaml().isScalar(key)) return undefined
  return key.value === null ? '' : typeof key.value === 'object' ? undefined : String(key.value)
}

/**
 * The alias at which the file's aliases, expanded in document order, first bring in more
 * than `limit` values; else the one that expands furthest. Undefined when there is no alias.
 */
export function aliasPastLimit(doc: Document, limit: number): Alias | undefined {
  const { isAlias } = yaml()
  const targets = new Map<Alias, Node>()
  const anchors = new Map<string, Node>()
  const aliases: Alias[] = []
  const pending: unknown[] = [doc.contents]
  while (pending.length) {
    const node = pending.pop()
    if (isAlias(node)) {
      const target = anchors.get(node.source)
      if (target) targets.set(node, target)
      aliases.push(node)
      continue
    }
    if (node !== null && typeof node === 'object' && typeof (node as Node).anchor === 'string') {
      anchors.set((node as Node).anchor!, node as Node)
    }
    const children = childrenOf(node)
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i])
  }

  const sizes = new Map<unknown, number>()
  const expansionOf = (node: unknown): number => {
    const known = sizes.get(node)
    if (known !== undefined) return known
    sizes.set(node, 0)
    let size = 0
    for (const child of childrenOf(node)) size += isAlias(child) ? 1 + expansionOf(targets.get(child)) : expansionOf(child)
    sizes.set(node, size)
    return size
  }

  let total = 0
  let largest: { alias: Alias, size: number } | undefined
  for (const alias of aliases) {
    const size = 1 + expansionOf(targets.get(alias))
    total += size
    if (total > limit) return alias
    if (!largest || size > largest.size) largest = { alias, size }
  }
  return largest?.alias
}

/** The nodes directly inside `node`, in document order (a pair's key, then its value). */
function childrenOf(node: unknown): unknown[] {
  const { isMap, isPair, isSeq } = yaml()
  if (isMap(node)) return node.items.flatMap((pair) => [pair.key, pair.value])
  if (isSeq(node)) return node.items.flatMap((item) => isPair(item) ? [item.key, item.value] : [item])
  return []
}
