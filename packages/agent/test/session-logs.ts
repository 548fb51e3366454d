/**
 * Session logs for the reader and store tests: a small valid log as the agent writes it, and
 * fast-check arbitraries for valid logs (text with multi-byte characters) and torn tails (a
 * write cut short at any byte, or random bytes, partial UTF-8 sequences included).
 */
import fc from 'fast-check'
import type { NewSessionEntry } from '../src/index.js'

/** One line as `jsonlSession` writes it. */
export const line = (entry: object, seq: number) => `${JSON.stringify({ ...entry, seq })}\n`

/** A finished batch of one call: user, assistant, tool/call, tool/result, turn/end (seq 1..5). */
export const batchEntries: NewSessionEntry[] = [
  { type: 'message', message: { role: 'user', content: 'read a — ünïcödé 😀' } },
  { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a"}' }] } },
  { type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: { path: 'a' } }, mode: 'parallel' },
  { type: 'tool/result', turn: 1, index: 0, message: { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'Bearer ✓' }], isError: false } },
  { type: 'turn/end', turn: 1, outcome: 'committed' },
]

/** The lines of `batchEntries`, each with its newline. */
export const batchLines = () => batchEntries.map((entry, i) => line(entry, i + 1))

const text = fc.string({ unit: 'grapheme', maxLength: 12 })
const turn = fc.integer({ min: 1, max: 9 })
const index = fc.nat(9)
const blocks = fc.array(text.map((t) => ({ type: 'text' as const, text: t })), { minLength: 1, maxLength: 3 })

/** Any valid new entry, its text drawn from all of Unicode. */
export const entryArb: fc.Arbitrary<NewSessionEntry> = fc.oneof(
  fc.record({ type: fc.constant('message' as const), message: fc.record({ role: fc.constant('user' as const), content: fc.oneof(text, blocks) }) }),
  fc.record({
    type: fc.constant('message' as const), turn,
    message: fc.record({
      role: fc.constant('assistant' as const), content: text,
      toolCalls: fc.array(fc.record({ id: text, name: text, arguments: fc.oneof(text, fc.dictionary(text, text)) }), { maxLength: 3 }),
    }),
  }),
  fc.record({ type: fc.constant('tool/call' as const), turn, index, call: fc.record({ id: text, name: text, arguments: fc.dictionary(text, text) }) }),
  fc.record({
    type: fc.constant('tool/result' as const), turn, index,
    message: fc.record({ role: fc.constant('tool' as const), toolCallId: text, content: blocks, isError: fc.boolean() }),
  }),
  fc.record({ type: fc.constant('turn/end' as const), turn, outcome: fc.constantFrom('committed' as const, 'aborted' as const, 'repaired' as const) }),
)

/**
 * `entries` made a log a load accepts: each `tool/call` and `tool/result` stands for a call of the
 * last assistant message with calls before it (its turn, an index it has, that call's id), a
 * result once per call; one with no such message, or a second result, becomes a user message.
 */
function consistent(entries: NewSessionEntry[]): NewSessionEntry[] {
  let batch: { turn: number, ids: string[] } | undefined
  const results = new Set<string>()
  return entries.map((entry) => {
    if (entry.type === 'message' && entry.turn !== undefined && entry.message.role === 'assistant' && entry.message.toolCalls?.length) {
      batch = { turn: entry.turn, ids: entry.message.toolCalls.map((call) => call.id) }
    }
    if (entry.type !== 'tool/call' && entry.type !== 'tool/result') return entry
    const index = batch ? entry.index % batch.ids.length : 0
    const key = `${batch?.turn}:${index}`
    if (!batch || (entry.type === 'tool/result' && results.has(key))) return { type: 'message', message: { role: 'user', content: 'next' } }
    const id = batch.ids[index]!
    if (entry.type === 'tool/call') return { ...entry, turn: batch.turn, index, call: { ...entry.call, id } }
    results.add(key)
    return { ...entry, turn: batch.turn, index, message: { ...entry.message, toolCallId: id } }
  })
}

/** A valid log (possibly empty) as bytes, and its entries with their seq. */
export const logArb = fc.array(entryArb, { maxLength: 6 }).map(consistent).map((entries) => {
  const stored = entries.map((entry, i) => ({ ...entry, seq: i + 1 }))
  return { stored, bytes: Buffer.from(entries.map((entry, i) => line(entry, i + 1)).join('')) }
})

/**
 * A torn last line: the start of a line cut at any byte (often inside a multi-byte character),
 * random bytes, or both; never a newline, never valid JSON (a whole line is not a tear).
 */
export const tornTailArb = fc.tuple(
  entryArb.chain((entry) => {
    const whole = Buffer.from(JSON.stringify({ ...entry, seq: 99 }))
    // An interrupted append leaves the start of an entry: at least its `{`.
    return fc.integer({ min: 1, max: whole.length - 1 }).map((cut) => whole.subarray(0, cut))
  }),
  fc.uint8Array({ maxLength: 8 }),
  fc.constantFrom(Buffer.alloc(0), Buffer.from('é').subarray(0, 1), Buffer.from('😀').subarray(0, 3), Buffer.from([0xff, 0xfe])),
).map(([start, noise, partial]) => Buffer.from(Buffer.concat([start, Buffer.from(noise), partial]).map((b) => (b === 0x0a ? 0x20 : b))))
  .filter((tail) => tail.length > 0 && !isJson(tail))

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'))
    return true
  } catch {
    return false
  }
}
