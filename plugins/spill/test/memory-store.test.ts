import { describe, expect, it } from 'vitest'
import { memoryStore } from '../src/memory-store.js'
import { testSpillStore } from '@rein/testing'

testSpillStore('memory', () => memoryStore(), { describe, it })

describe('memory store', () => {
  it('keeps stores apart and empties on close', async () => {
    const a = memoryStore()
    const b = memoryStore()
    const saved = await a.save('only in a', { tool: 't', callId: '1' })
    await expect(b.read(saved.locator)).rejects.toThrow(/no spilled output/)
    expect(a.size).toBe(1)
    await a.close()
    expect(a.size).toBe(0)
  })
})
