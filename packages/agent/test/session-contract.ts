/**
 * The contract every SessionStore must keep, as one suite each implementation runs:
 * `testSessionStore('memory', make)`. `make` returns a fresh store and a way to open the same
 * session again (another process would do that after a crash).
 */
import { describe, expect, it } from 'vitest'
import type { NewSessionEntry, SessionStore } from '../src/index.js'

export interface StoreFixture {
  store: SessionStore
  reopen(): SessionStore
}

const user = (text: string): NewSessionEntry => ({ type: 'message', message: { role: 'user', content: text } })

export function testSessionStore(name: string, make: () => Promise<StoreFixture>) {
  describe(`SessionStore contract: ${name}`, () => {
    it('numbers entries 1, 2, 3... in the order append was called, even when appends overlap', async () => {
      const { store } = await make()
      const stored = await Promise.all(['a', 'b', 'c'].map((text) => store.append(user(text))))
      expect(stored.map((e) => e.seq)).toEqual([1, 2, 3])
      expect(stored[2]).toEqual({ ...user('c'), seq: 3 })
      await store.close?.()
    })

    it('loads every entry in order, as copies that cannot change what is stored', async () => {
      const { store } = await make()
      await store.append(user('a'))
      await store.append({ type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: { path: 'x' } } })
      const first = await store.load()
      expect(first.map((e) => e.type)).toEqual(['message', 'tool/call']);
      (first[0] as { message: { content: string } }).message.content = 'changed'
      expect((await store.load())[0]).toEqual({ ...user('a'), seq: 1 })
      await store.close?.()
    })

    it('is seen whole by a store reopened on the same session, which keeps numbering', async () => {
      const { store, reopen } = await make()
      await store.append(user('a'))
      await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
      await store.close?.()
      const again = reopen()
      expect((await again.load()).map((e) => e.seq)).toEqual([1, 2])
      expect((await again.append(user('b'))).seq).toBe(3)
      await again.close?.()
    })
  })
}
