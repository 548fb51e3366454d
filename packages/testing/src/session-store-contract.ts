/**
 * The contract every SessionStore keeps (DESIGN.md §3), as one suite each store runs:
 * `testSessionStore('jsonlSession(path)', make, { describe, it })`. Entries are numbered 1, 2,
 * 3... in the order `append` was called; an append resolves only once a fresh reader can see
 * its entry; a store opened again on the session (after a close, or a crash) sees every entry
 * whose append resolved, exactly, and numbers on; nothing is stored that could not be read
 * back. Stores are matched by shape and checked with node:assert, so this kit depends on
 * neither `@rein/agent` nor a test runner (the caller hands in its `describe` and `it`).
 */
import assert from 'node:assert/strict'
import type { TestRunner } from './provider-contract.js'

/** An entry as the suite writes it (a `NewSessionEntry` of `@rein/agent`). */
export type StoreEntry = { type: string } & Record<string, unknown>

/** A SessionStore (`@rein/agent`), by shape. */
export interface StoreUnderTest {
  /** Names the session: the same for every store opened on it, another for another session. */
  readonly id: string
  load(): Promise<readonly object[]>
  append(entry: StoreEntry): Promise<{ seq: number }>
  close?(): Promise<void>
}

/** One fresh, empty session in the store under test, and other views of the same session. */
export interface SessionStoreFixture {
  /** The store, on a session nobody has written to yet. */
  store: StoreUnderTest
  /** Another store on the same session, as another process would open it later. */
  reopen(): StoreUnderTest
  /** What is stored now, read without going through `store` (as another process would read it). */
  stored(): Promise<readonly object[]>
  /** Abandons `store` as a killed process would (no close), or does what a crash means for this store. */
  crash(): Promise<void>
}

/** The runner's `describe` and `it`, and what the store under test promises beyond the contract. */
export interface SessionStoreContractOptions extends TestRunner {
  /** The store refuses an entry that is not valid (default true; `memorySession` stores what it is given). */
  validates?: boolean
}

const user = (text: string): StoreEntry => ({ type: 'message', message: { role: 'user', content: text } })
const texts = (entries: readonly object[]) => entries.map((e) => (e as { message?: { content?: unknown } }).message?.content)
const seqs = (entries: readonly object[]) => entries.map((e) => (e as { seq: number }).seq)
const numbered = (entries: StoreEntry[], from = 1) => entries.map((entry, i) => ({ ...entry, seq: from + i }))

/** Text a store must keep exactly: multi-byte, astral, U+0000, unpaired surrogates, escapes. */
const AWKWARD = 'ünïcödé 😀 \u0000 nul \ud800 lone \udfff "quoted" back\\slash \\u0000 \n\t end'

/** One of each kind of entry, every optional field used. */
const EVERY_KIND: StoreEntry[] = [
  { type: 'message', at: 1_700_000_000_000, message: { role: 'user', content: [{ type: 'text', text: AWKWARD }] } },
  {
    type: 'message', turn: 1, at: 1_700_000_000_001,
    message: {
      role: 'assistant', content: 'calling', usage: { input: 3 },
      toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a"}' }, { id: 'c2', name: 'pay', arguments: '{}' }],
    },
  },
  { type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: { path: 'a', deep: [1, { x: null }] } }, mode: 'parallel' },
  // A call that parked for approval (DESIGN.md §7.2), and the answer a person wrote later.
  {
    type: 'approval/request', id: 'apr_1', turn: 1, index: 0, callId: 'c1', tool: 'read', arguments: { path: 'a', deep: [1, { x: null }] },
    rule: `read\u0000rule:0:${AWKWARD}`, reason: AWKWARD, expiresAt: 1_800_000_000_000, at: 1_700_000_000_002,
  },
  { type: 'approval/answer', id: 'apr_1', answer: 'allow-session', by: AWKWARD, at: 1_700_000_000_003 },
  {
    type: 'tool/result', turn: 1, index: 0,
    message: { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'x'.repeat(300_000) }], isError: false },
    code: 'OK', additionalContexts: [{ type: 'text', text: 'see also' }], concludesTurn: true,
    timing: { startedAt: 1, bodyStartedAt: 2, bodyEndedAt: 3, finalAt: 4 }, meta: { cache: { hit: false }, [AWKWARD]: AWKWARD },
    value: { kept: [AWKWARD, 1.5, null] },
  },
  // A failure that ends the run (a budget's end-run): a continuation of its batch must know.
  {
    type: 'tool/result', turn: 1, index: 1, code: 'BUDGET_EXCEEDED', endsRun: true,
    message: { role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: `Error: ${AWKWARD}` }], isError: true },
  },
  { type: 'turn/end', turn: 1, outcome: 'committed' },
  { type: 'state', plugin: '@rein/plugin-budget', key: AWKWARD, value: { calls: 3, recent: [['read', 'h1'], null], cost: 0.5, note: AWKWARD } },
]

/** Plugins' per-session state (DESIGN.md §7.1): two values of one key, and another plugin's key of the same name. */
const STATE: StoreEntry[] = [
  { type: 'state', plugin: 'budget', key: 'calls', value: 1 },
  { type: 'state', plugin: 'approvals', key: 'calls', value: { answer: 'allow-session' } },
  { type: 'state', plugin: 'budget', key: 'calls', value: 2 },
]

/** A session that stopped mid-batch: c1 has its result, c2 started, c3 never did. */
const INTERRUPTED: StoreEntry[] = [
  user('go'),
  { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: ['c1', 'c2', 'c3'].map((id) => ({ id, name: 'read', arguments: '{}' })) } },
  { type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: {} } },
  { type: 'tool/call', turn: 1, index: 1, call: { id: 'c2', name: 'read', arguments: {} } },
  { type: 'tool/result', turn: 1, index: 0, message: { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'one' }], isError: false } },
]

const REPAIRS: StoreEntry[] = [
  { type: 'tool/result', turn: 1, index: 1, code: 'TOOL_OUTCOME_UNKNOWN', message: { role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: 'unknown' }], isError: true } },
  { type: 'tool/result', turn: 1, index: 2, code: 'TOOL_NOT_STARTED', message: { role: 'tool', toolCallId: 'c3', content: [{ type: 'text', text: 'not started' }], isError: true } },
  { type: 'turn/end', turn: 1, outcome: 'repaired' },
]

async function appendAll(store: StoreUnderTest, entries: StoreEntry[]) {
  for (const entry of entries) await store.append(entry)
}

/** Registers the store contract, run against the stores `make` returns (one fresh session per test). */
export function testSessionStore(name: string, make: () => Promise<SessionStoreFixture>, options: SessionStoreContractOptions): void {
  const { describe, it } = options
  describe(`SessionStore contract: ${name}`, () => {
    it('loads a new session as empty', async () => {
      const { store } = await make()
      assert.deepEqual(await store.load(), [])
      await store.close?.()
    })

    it('has an id naming its session: the same for a store reopened on it, another for another session', async () => {
      const { store, reopen } = await make()
      const other = await make()
      assert.equal(typeof store.id, 'string')
      assert.notEqual(store.id, '')
      assert.equal(reopen().id, store.id)
      assert.notEqual(other.store.id, store.id)
      await store.close?.()
      await other.store.close?.()
    })

    it('keeps plugins\' state entries in append order across a reopen, so the latest value of a key is the last', async () => {
      const { store, reopen } = await make()
      await appendAll(store, [user('a'), ...STATE])
      await store.close?.()
      const again = reopen()
      assert.deepEqual(await again.load(), numbered([user('a'), ...STATE]))
      await again.close?.()
    })

    it('numbers entries 1, 2, 3... in the order append was called, even when 50 appends overlap', async () => {
      const { store } = await make()
      const words = Array.from({ length: 50 }, (_, i) => `m${i}`)
      const stored = await Promise.all(words.map((word) => store.append(user(word))))
      assert.deepEqual(seqs(stored), words.map((_, i) => i + 1))
      assert.deepEqual(stored[49], { ...user('m49'), seq: 50 })
      assert.deepEqual(texts(await store.load()), words)
      await store.close?.()
    })

    it('loads every entry in seq order, as copies that cannot change what is stored', async () => {
      const { store } = await make()
      await appendAll(store, [user('a'), user('b')])
      const first = await store.load() as { message: { content: string } }[]
      first[0].message.content = 'changed'
      assert.deepEqual(await store.load(), numbered([user('a'), user('b')]))
      await store.close?.()
    })

    it('keeps every kind of entry and every string exactly, U+0000 and unpaired surrogates included', async () => {
      const { store, reopen } = await make()
      await appendAll(store, EVERY_KIND)
      assert.deepEqual(await store.load(), numbered(EVERY_KIND))
      await store.close?.()
      const again = reopen()
      assert.deepEqual(await again.load(), numbered(EVERY_KIND))
      await again.close?.()
    })

    it('resolves an append only once a fresh reader sees its entry, overlapping appends included', async () => {
      const { store, stored } = await make()
      for (const word of ['a', 'b']) {
        const { seq } = await store.append(user(word))
        assert.ok(seqs(await stored()).includes(seq), `entry ${seq} resolved before a fresh reader could see it`)
      }
      const seen = await Promise.all(['c', 'd', 'e', 'f'].map(async (word) => {
        const { seq } = await store.append(user(word))
        return seqs(await stored()).includes(seq)
      }))
      assert.deepEqual(seen, [true, true, true, true])
      await store.close?.()
    })

    it('is seen whole by a store reopened on the session, which numbers on, again and again', async () => {
      const { store, reopen } = await make()
      await appendAll(store, [user('a'), user('b')])
      await store.close?.()
      const second = reopen()
      assert.deepEqual(texts(await second.load()), ['a', 'b'])
      assert.equal((await second.append(user('c'))).seq, 3)
      await second.close?.()
      const third = reopen()
      assert.equal((await third.append(user('d'))).seq, 4)
      assert.deepEqual(texts(await third.load()), ['a', 'b', 'c', 'd'])
      await third.close?.()
    })

    it('waits in close() for appends still in flight, and stores them all', async () => {
      const { store, reopen } = await make()
      const appends = Array.from({ length: 20 }, (_, i) => store.append(user(`m${i}`)))
      await store.close?.()
      assert.deepEqual(seqs(await Promise.all(appends)), Array.from({ length: 20 }, (_, i) => i + 1))
      const again = reopen()
      assert.deepEqual(seqs(await again.load()), Array.from({ length: 20 }, (_, i) => i + 1))
      await again.close?.()
    })

    it('reloads an interrupted batch exactly, so a resumed run can repair it, and numbers the repairs on', async () => {
      const { store, reopen } = await make()
      await appendAll(store, INTERRUPTED)
      await store.close?.()
      const resumed = reopen()
      assert.deepEqual(await resumed.load(), numbered(INTERRUPTED))
      assert.deepEqual(seqs(await Promise.all(REPAIRS.map((entry) => resumed.append(entry)))), [6, 7, 8])
      assert.deepEqual(await resumed.load(), numbered([...INTERRUPTED, ...REPAIRS]))
      await resumed.close?.()
    })

    if (options.validates !== false) it('refuses an entry that is not valid, naming the field, storing nothing and going on', async () => {
      const { store, stored } = await make()
      await store.append(user('a'))
      await assert.rejects(store.append({ type: 'message', turn: 1 }), /"message" is missing, expected a message object/)
      await assert.rejects(store.append({ type: 'note' }), /"type" is "note", expected/)
      await assert.rejects(store.append({ type: 'state', key: 'k', value: 1 }), /"plugin" is missing/)
      await assert.rejects(store.append({ type: 'state', plugin: 'p', key: 'k' }), /"value" is missing, expected a JSON value/)
      await assert.rejects(store.append({ ...REPAIRS[0], endsRun: false }), /"endsRun" must be true, got false/)
      assert.equal((await store.append(user('b'))).seq, 2)
      assert.deepEqual(texts(await stored()), ['a', 'b'])
      await store.close?.()
    })

    it('after a crash, is reopened with every entry whose append resolved, and numbers on', async () => {
      const { store, reopen, crash } = await make()
      await appendAll(store, INTERRUPTED)
      await crash()
      const resumed = reopen()
      assert.deepEqual(await resumed.load(), numbered(INTERRUPTED))
      assert.equal((await resumed.append(REPAIRS[0])).seq, 6)
      await resumed.close?.()
    })
  })
}
