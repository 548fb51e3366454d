import { describe, expect, it } from 'vitest'
import { writeAll } from '../src/jsonl-file.js'

/** A handle whose writes store at most `step` bytes each (0: nothing), recording what was stored. */
function shortWriter(step: number) {
  const stored: number[] = []
  let calls = 0
  const handle = {
    async write(buffer: Uint8Array, offset = 0, length = buffer.length - offset) {
      calls++
      const bytesWritten = Math.min(step, length)
      stored.push(...buffer.subarray(offset, offset + bytesWritten))
      return { bytesWritten, buffer }
    },
  }
  return { handle: handle as unknown as Parameters<typeof writeAll>[0], stored, calls: () => calls }
}

describe('writeAll', () => {
  it('writes on after a short write until every byte is stored, in order', async () => {
    const bytes = Buffer.from('{"seq":1}\n{"seq":2}\n')
    const { handle, stored, calls } = shortWriter(3)
    await writeAll(handle, bytes)
    expect(Buffer.from(stored)).toEqual(bytes)
    expect(calls()).toBe(Math.ceil(bytes.length / 3))
  })

  it('throws when a write stores nothing, saying how far it got', async () => {
    const { handle } = shortWriter(0)
    await expect(writeAll(handle, Buffer.from('abc'))).rejects.toThrow('a write stored nothing, after 0 of 3 bytes')
  })

  it('writes nothing for no bytes', async () => {
    const { handle, calls } = shortWriter(1)
    await writeAll(handle, Buffer.alloc(0))
    expect(calls()).toBe(0)
  })
})
