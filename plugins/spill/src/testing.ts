/**
 * The contract every spill store must meet, as a vitest suite: `testSpillStore(name, make)`.
 * The built-in stores run it; a remote store runs it too (`@rein/plugin-spill/testing`).
 * It checks exact round trips, honest byte counts, fresh locators, and that a locator the
 * store never issued (including path-like ones) is refused with `SPILL_NOT_FOUND`.
 */
import { utf8Length } from '@rein/retention'
import { afterEach, describe, expect, it } from 'vitest'
import { SPILL_NOT_FOUND } from './codes.js'
import type { SpillStore } from './store.js'

const meta = { tool: 'test_tool', callId: 'call_1' }

/** Runs the spill store contract against stores made by `make` (a fresh store per test). */
export function testSpillStore(name: string, make: () => SpillStore | Promise<SpillStore>): void {
  describe(`spill store contract: ${name}`, () => {
    let store: SpillStore | undefined
    const fresh = async () => (store = await make())
    afterEach(async () => {
      await store?.close?.()
      store = undefined
    })

    it('returns exactly the text it saved, with its UTF-8 byte count', async () => {
      const s = await fresh()
      const text = 'plain ascii\nZürich € 中文 😀 👨‍👩‍👧\r\n\ttabs and "quotes" \\ backslash\u0000nul'
      const saved = await s.save(text, meta)
      expect(saved.bytes).toBe(utf8Length(text))
      expect(saved.bytes).toBe(Buffer.byteLength(text))
      expect(await s.read(saved.locator)).toBe(text)
    })

    it('round-trips the empty text and a large text byte for byte', async () => {
      const s = await fresh()
      const empty = await s.save('', meta)
      expect(empty.bytes).toBe(0)
      expect(await s.read(empty.locator)).toBe('')
      const big = 'line 😀 of output\n'.repeat(60_000)
      const saved = await s.save(big, meta)
      const back = await s.read(saved.locator)
      expect(Buffer.from(back).equals(Buffer.from(big))).toBe(true)
    })

    it('gives every save its own locator, even for the same text', async () => {
      const s = await fresh()
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.save(i % 2 ? 'same' : `text ${i}`, meta)))
      expect(new Set(results.map((r) => r.locator)).size).toBe(20)
      for (const [i, r] of results.entries()) expect(await s.read(r.locator)).toBe(i % 2 ? 'same' : `text ${i}`)
    })

    it('names the locator in its retrieval hint', async () => {
      const s = await fresh()
      const saved = await s.save('x', meta)
      expect(typeof saved.locator).toBe('string')
      expect(saved.locator.length).toBeGreaterThan(0)
      expect(saved.retrievalHint).toContain(saved.locator)
    })

    it('refuses locators it never issued with SPILL_NOT_FOUND, including path-like ones', async () => {
      const s = await fresh()
      const saved = await s.save('secret', meta)
      const forged = ['', 'nope', '../../../etc/passwd', '/etc/passwd', `${saved.locator}/..`, `../${saved.locator}`,
        `${saved.locator}.txt`, `${saved.locator}\u0000`, saved.locator.toUpperCase(), `${saved.locator} `]
      for (const locator of forged) {
        if (locator === saved.locator) continue
        await expect(s.read(locator), locator).rejects.toMatchObject({ code: SPILL_NOT_FOUND })
      }
    })

    it('forgets a deleted output, when it supports delete', async () => {
      const s = await fresh()
      if (!s.delete) return
      const saved = await s.save('gone soon', meta)
      const kept = await s.save('kept', meta)
      await s.delete(saved.locator)
      await expect(s.read(saved.locator)).rejects.toMatchObject({ code: SPILL_NOT_FOUND })
      expect(await s.read(kept.locator)).toBe('kept')
      await s.delete(saved.locator)
    })
  })
}
