/**
 * The contract every spill store keeps (`@rein/plugin-spill`'s `SpillStore`), as one suite each
 * store runs: `testSpillStore('local', make, { describe, it })`. A store returns exactly the
 * text it saved with its UTF-8 byte count, gives every save its own locator named in the
 * retrieval hint, forgets what it deleted, and refuses any locator it never issued (path-like
 * ones included) with `SPILL_NOT_FOUND`. Stores are matched by shape and checked with
 * node:assert, so this kit depends on neither the plugin nor a test runner.
 */
import assert from 'node:assert/strict'
import type { TestRunner } from './provider-contract.js'

/** A spill store, by shape. */
export interface SpillStoreUnderTest {
  save(text: string, meta: { tool: string, callId: string }): Promise<{ locator: string, bytes: number, retrievalHint: string }>
  read(locator: string): Promise<string>
  delete?(locator: string): Promise<void>
  close?(): Promise<void>
}

const meta = { tool: 'test_tool', callId: 'call_1' }

/** Runs the spill store contract against stores made by `make` (a fresh store per test). */
export function testSpillStore(name: string, make: () => SpillStoreUnderTest | Promise<SpillStoreUnderTest>, runner: TestRunner): void {
  const { describe, it } = runner
  const check = (title: string, body: (store: SpillStoreUnderTest) => Promise<void>) => it(title, async () => {
    const store = await make()
    try {
      await body(store)
    } finally {
      await store.close?.()
    }
  })
  const refused = async (store: SpillStoreUnderTest, locator: string) => {
    await assert.rejects(store.read(locator), (error: { code?: unknown }) => error?.code === 'SPILL_NOT_FOUND', `locator ${JSON.stringify(locator)}`)
  }

  describe(`spill store contract: ${name}`, () => {
    check('returns exactly the text it saved, with its UTF-8 byte count', async (store) => {
      const text = 'plain ascii\nZürich € 中文 😀 👨‍👩‍👧\r\n\ttabs and "quotes" \\ backslash\u0000nul'
      const saved = await store.save(text, meta)
      assert.equal(saved.bytes, Buffer.byteLength(text))
      assert.equal(await store.read(saved.locator), text)
    })

    check('round-trips the empty text and a large text byte for byte', async (store) => {
      const empty = await store.save('', meta)
      assert.equal(empty.bytes, 0)
      assert.equal(await store.read(empty.locator), '')
      const big = 'line 😀 of output\n'.repeat(60_000)
      const saved = await store.save(big, meta)
      assert.ok(Buffer.from(await store.read(saved.locator)).equals(Buffer.from(big)))
    })

    check('gives every save its own locator, even for the same text', async (store) => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.save(i % 2 ? 'same' : `text ${i}`, meta)))
      assert.equal(new Set(results.map((r) => r.locator)).size, 20)
      for (const [i, r] of results.entries()) assert.equal(await store.read(r.locator), i % 2 ? 'same' : `text ${i}`)
    })

    check('names the locator in its retrieval hint', async (store) => {
      const saved = await store.save('x', meta)
      assert.equal(typeof saved.locator, 'string')
      assert.ok(saved.locator.length > 0)
      assert.ok(saved.retrievalHint.includes(saved.locator))
    })

    check('refuses locators it never issued with SPILL_NOT_FOUND, including path-like ones', async (store) => {
      const saved = await store.save('secret', meta)
      const forged = ['', 'nope', '../../../etc/passwd', '/etc/passwd', `${saved.locator}/..`, `../${saved.locator}`,
        `${saved.locator}.txt`, `${saved.locator}\u0000`, saved.locator.toUpperCase(), `${saved.locator} `]
      for (const locator of forged) if (locator !== saved.locator) await refused(store, locator)
    })

    check('forgets a deleted output, when it supports delete', async (store) => {
      if (!store.delete) return
      const saved = await store.save('gone soon', meta)
      const kept = await store.save('kept', meta)
      await store.delete(saved.locator)
      await refused(store, saved.locator)
      assert.equal(await store.read(kept.locator), 'kept')
      await store.delete(saved.locator)
    })
  })
}
