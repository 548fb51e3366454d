import { describe, expect, it } from 'vitest'
import { writeAll } from '../src/jsonl-file.js'

/** A writer whose writes store at most `step` bytes each (0: nothing), recording what was stored. */
function shortWriter(step: number) {
  const stored: number[] = []
  let calls = 0
  const write = (buffer: Uint8Array, offset: number, length: number) => {
    calls++
    const bytesWritten = Math.min(step, length)
    stored.push(...buffer.subarray(offset, offset + bytesWritten))
    return bytesWritten
  }
  return { write, stored, calls: () => calls }
}

describe('writeAll', () => {
  it('writes on after a short write until every byte is stored, in order', () => {
    const bytes = Buffer.from('{"seq":1}\n{"seq":2}\n')
    const { write, stored, calls } = shortWriter(3)
    writeAll(write, bytes)
    expect(Buffer.from(stored)).toEqual(bytes)
    expect(calls()).toBe(Math.ceil(bytes.length / 3))
  })

  it('throws when a write stores nothing, saying how far it got', () => {
    const { write } = shortWriter(0)
    expect(() => writeAll(write, Buffer.from('abc'))).toThrow('a write stored nothing, after 0 of 3 bytes')
  })

  it('writes nothing for no bytes', () => {
    const { write, calls } = shortWriter(1)
    writeAll(write, Buffer.alloc(0))
    expect(calls()).toBe(0)
  })
})
