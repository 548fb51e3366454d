/**
 * `mapParts(value, f)`: the items of an array, or the keys and values of an object, with `f`
 * applied to each value (given its key's original name too, for an object) and `key` to each
 * key, when given: what `redactValue` and the audit
 * log's cuts walk with. Copy on write: when every answer is the part it was given, `value`
 * itself is returned, so a value with nothing to change allocates nothing. No value is ever
 * dropped: when keys map to the same name, the later ones are numbered (`[REDACTED] (2)`).
 */
export function mapParts(value: object, f: (part: unknown, name?: string) => unknown, key?: (name: string) => string): object {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const mapped = f(item)
      if (out === undefined && mapped !== item) out = value.slice(0, i)
      out?.push(mapped)
    }
    return out ?? value
  }
  const record = value as Record<string, unknown>
  const names = Object.keys(record)
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!
    const inner = record[name]
    const newName = key ? key(name) : name
    const mapped = f(inner, name)
    if (newName === name && mapped === inner) continue
    // The first change: the parts before it are kept, the rest mapped (fromEntries defines
    // every key as data, so even a "__proto__" key stays a key).
    const entries: [string, unknown][] = names.slice(0, i).map((kept) => [kept, record[kept]])
    entries.push([newName, mapped])
    for (const rest of names.slice(i + 1)) entries.push([key ? key(rest) : rest, f(record[rest], rest)])
    return Object.fromEntries(distinctNames(entries))
  }
  return value
}

/**
 * `entries` with every name distinct, in order: a name an earlier entry already has gets the
 * first suffix ` (2)`, ` (3)`, … that no entry has or asks for (so it takes no later entry's
 * name either). Each base name remembers where its count stopped, so many alike stay linear.
 * The entries are renamed in place and returned.
 */
function distinctNames(entries: [string, unknown][]): [string, unknown][] {
  const wanted = new Set(entries.map(([name]) => name))
  if (wanted.size === entries.length) return entries
  const given = new Set<string>()
  const next = new Map<string, number>()
  for (const entry of entries) {
    const base = entry[0]
    if (given.has(base)) {
      let n = next.get(base) ?? 2
      while (given.has(`${base} (${n})`) || wanted.has(`${base} (${n})`)) n++
      next.set(base, n + 1)
      entry[0] = `${base} (${n})`
    }
    given.add(entry[0])
  }
  return entries
}
