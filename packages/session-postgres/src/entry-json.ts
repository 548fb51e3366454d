/**
 * An entry as a row holds it, and back, exactly. The entry goes in the `jsonb` column `entry`
 * (without its `seq`, which is a column of its own). jsonb cannot hold U+0000 or an unpaired
 * surrogate, which a tool's output may well contain; such an entry also keeps its exact JSON
 * text in `entry_text` (JSON text escapes them, so a text column holds it), and `entry` gets a
 * copy with U+FFFD in their place, still whole for queries. Reading prefers `entry_text`.
 * jsonb keeps every value but not the order of an object's keys.
 */

/** The two column values for an entry (whose `seq` is left out). */
export interface EntryColumns {
  entry: string
  entryText: string | null
}

// In JSON.stringify's output only these escapes stand for what jsonb refuses (paired surrogates
// are written as they are); an escape counts when an even number of backslashes precede it.
const UNSTORABLE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The columns for `entry`. Throws as JSON.stringify does (a bigint, a cycle). */
export function entryColumns(entry: object): EntryColumns {
  // An entry being appended has no `seq`: only one that has one is copied to leave it out.
  const text = JSON.stringify('seq' in entry ? withoutSeq(entry) : entry)
  // Every escape it looks for starts `\u`, which JSON text of ordinary values rarely holds.
  if (!text.includes('\\u') || !UNSTORABLE.test(text)) return { entry: text, entryText: null }
  return { entry: JSON.stringify(storable(JSON.parse(text))), entryText: text }
}

function withoutSeq({ seq: _seq, ...fields }: { seq?: unknown }): object {
  return fields
}

/**
 * The entry a row holds (the `jsonb` column as `pg` parsed it, and the exact text when kept).
 * Throws a SyntaxError when the exact text is not JSON (the row was edited by hand): its
 * message quotes the text, which may hold a secret, so it must not be shown.
 */
export function entryOf(entry: unknown, entryText: string | null): unknown {
  return entryText === null ? entry : JSON.parse(entryText)
}

/** `value` with every string (keys too) made storable in jsonb. */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return clean(value)
  if (Array.isArray(value)) return value.map(storable)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [clean(key), storable(inner)]))
}

function clean(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replaceAll('\0', '\ufffd')
}
