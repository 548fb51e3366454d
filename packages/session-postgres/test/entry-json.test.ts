import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entryColumns, entryOf } from '../src/entry-json.js'

/** What jsonb refuses in JSON text: an escaped U+0000 or an escaped surrogate (only unpaired ones are escaped). */
const REFUSED_BY_JSONB = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f])/

const roundTrip = (entry: object) => {
  const { entry: jsonb, entryText } = entryColumns(entry)
  return entryOf(JSON.parse(jsonb), entryText)
}

describe('entries as rows', () => {
  it('stores a plain entry as jsonb alone, without its seq', () => {
    expect(entryColumns({ seq: 4, type: 'turn/end', turn: 1, outcome: 'committed' }))
      .toEqual({ entry: '{"type":"turn/end","turn":1,"outcome":"committed"}', entryText: null })
  })

  it('keeps the exact text of an entry with U+0000 or an unpaired surrogate, and a jsonb copy with U+FFFD', () => {
    const entry = { type: 'x', text: 'a\u0000b\ud800c', meta: { 'k\u0000': '\udc00' } }
    const columns = entryColumns(entry)
    expect(JSON.parse(columns.entry)).toEqual({ type: 'x', text: 'a\ufffdb\ufffdc', meta: { 'k\ufffd': '\ufffd' } })
    expect(columns.entryText).toBe(JSON.stringify(entry))
    expect(roundTrip(entry)).toEqual(entry)
  })

  it('needs no exact text for a backslash followed by u0000, or for a paired surrogate', () => {
    expect(entryColumns({ type: 'x', text: '\\u0000 and \\ud800 and 😀' }).entryText).toBeNull()
  })

  it('gives back any entry exactly, and never a jsonb text that jsonb refuses', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 })
    fc.assert(fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 }))), (fields) => {
      const entry = { ...fields, type: 'x' }
      expect(roundTrip(entry)).toEqual(JSON.parse(JSON.stringify(entry)))
      expect(entryColumns(entry).entry).not.toMatch(REFUSED_BY_JSONB)
    }), { numRuns: 300 })
  })

  it('throws as JSON.stringify does for what JSON cannot hold', () => {
    expect(() => entryColumns({ type: 'x', n: 1n })).toThrow(TypeError)
  })
})
