import pg from 'pg'
import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { TOOL_OUTCOME_UNKNOWN, defineTool, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { createAgent, redactedSession, type NewSessionEntry } from '@rein/agent'
import { callMessage, createGate, scripted, testSessionStore, toolCall, validateTranscript, withKernel } from '@rein/testing'
import { migrate, postgresSession, type PostgresSessionError } from '../src/index.js'
import { TABLE, describeWithPostgres, killWriter, newId, storedEntries } from './helpers.js'

describeWithPostgres('postgresSession', (db) => {
  testSessionStore('postgresSession({ connectionString })', async () => {
    const id = newId()
    const open = () => postgresSession({ connectionString: db().server.url, id })
    return { store: open(), reopen: open, stored: () => storedEntries(db().admin, id), crash: () => killWriter(db().admin, id) }
  }, { describe, it })

  describe('wrapped in redactedSession', () => {
    const redact = (text: string) => text.replace(/Bearer \S+/g, 'Bearer [REDACTED]')
    testSessionStore('redactedSession(postgresSession(...), redact)', async () => {
      const id = newId()
      const open = () => redactedSession(postgresSession({ connectionString: db().server.url, id }), redact)
      return { store: open(), reopen: open, stored: () => storedEntries(db().admin, id), crash: () => killWriter(db().admin, id) }
    }, { describe, it })

    it('stores a tool output without the token it printed, and its call as it ran', async () => {
      const id = newId()
      const store = redactedSession(postgresSession({ connectionString: db().server.url, id }), redact)
      const call = { id: 'c1', name: 'sh', arguments: { cmd: 'curl -H "Bearer tok-1"' } }
      await store.append({ type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [call] } })
      await store.append({ type: 'tool/call', turn: 1, index: 0, call })
      await store.append({
        type: 'tool/result', turn: 1, index: 0,
        message: { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'Authorization: Bearer tok-1' }], isError: false },
      })
      await store.close?.()
      expect(await storedEntries(db().admin, id)).toMatchObject([
        { type: 'message' },
        { type: 'tool/call', call: { arguments: { cmd: 'curl -H "Bearer tok-1"' } } },
        { type: 'tool/result', message: { content: [{ type: 'text', text: 'Authorization: Bearer [REDACTED]' }] } },
      ])
    })
  })

  describe('with a pool the caller owns', () => {
    const pools: pg.Pool[] = []
    testSessionStore('postgresSession({ pool })', async () => {
      const id = newId()
      const pool = new pg.Pool({ connectionString: db().server.url, max: 2 })
      pools.push(pool)
      const open = () => postgresSession({ pool, id })
      return { store: open(), reopen: open, stored: () => storedEntries(db().admin, id), crash: () => killWriter(db().admin, id) }
    }, { describe, it })

    it('gives each connection it took back closed, leaving the pool usable', async () => {
      const pool = new pg.Pool({ connectionString: db().server.url, max: 1 })
      const store = postgresSession({ pool, id: newId() })
      await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
      await store.close?.()
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
      await pool.end()
      await Promise.all(pools.map((p) => p.end()))
    })
  })

  it('groups overlapping appends into transactions of at most 1000 entries, numbered in call order', async () => {
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id })
    const stored = await Promise.all(Array.from({ length: 2500 }, (_, i) => store.append({ type: 'turn/end', turn: i + 1, outcome: 'committed' })))
    await store.close()
    expect(stored.every((entry, i) => entry.seq === i + 1)).toBe(true)
    const { rows } = await db().admin.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE session_id = $1 GROUP BY xmin::text ORDER BY min(seq)`, [id])
    expect(rows.length).toBeGreaterThanOrEqual(3)
    expect(Math.max(...rows.map((r) => r.n))).toBeLessThanOrEqual(1000)
  })

  it('commits the appends made together, and those their acknowledgements set going, in one transaction each', async () => {
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id })
    await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
    const entry = (turn: number) => ({ type: 'turn/end' as const, turn, outcome: 'committed' as const })
    // 30 appends at once; each, once acknowledged, makes one more a few promise reactions later (as a
    // call whose tool/call is committed runs through its stages and the next call starts).
    const first = Array.from({ length: 30 }, (_, i) => store.append(entry(i + 2)))
    const second = first.map((appended, i) => appended.then(async () => {
      for (let step = 0; step < i % 6; step++) await Promise.resolve()
      return store.append(entry(i + 32))
    }))
    await Promise.all([...first, ...second])
    await store.close()
    const { rows } = await db().admin.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE session_id = $1 GROUP BY xmin::text ORDER BY min(seq)`, [id])
    expect(rows.map((r) => r.n)).toEqual([1, 30, 30])
  })

  it('has a batch of calls share transactions: their tool/call entries together, their results together', async () => {
    const { ctx } = await withKernel({ name: 'none', apply: () => {} })
    ctx.tools.register(defineTool({ name: 'noop', description: 'does nothing', parameters: { type: 'object' }, isConcurrencySafe: () => true, execute: async () => 'ok' }))
    const id = newId()
    const session = postgresSession({ connectionString: db().server.url, id })
    const calls = callMessage(Array.from({ length: 40 }, (_, i) => toolCall(`call_${i}`, 'noop')))
    const outcome = await createAgent(ctx, { provider: scripted([calls]), session, maxParallelToolCalls: 40 }).run('go')
    await session.close()
    expect(outcome.kind).toBe('completed')
    const { rows } = await db().admin.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE session_id = $1 GROUP BY xmin::text`, [id])
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(84) // the user message, the calls' message, 40 calls, 40 results, turn/end, the answer
    // One transaction per result (and more) when each result waits for the one before it.
    expect(rows.length).toBeLessThanOrEqual(8)
  })

  it('refuses an entry JSON cannot hold, storing nothing and going on', async () => {
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id })
    const call = { type: 'tool/call' as const, turn: 1, index: 0, call: { id: 'c1', name: 'n', arguments: { big: 1n } } }
    await expect(store.append(call)).rejects.toThrow(
      `session entry not appended to postgres session "${id}": it cannot be written as JSON (Do not know how to serialize a BigInt)`)
    expect((await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })).seq).toBe(1)
    await store.close()
  })

  it('refuses an entry JSON cannot hold alone, when it came in one batch with others: those are stored, numbered without a gap', async () => {
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id })
    await store.load()
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const call = (index: number, args: object) => ({ type: 'tool/call' as const, turn: 1, index, call: { id: `c${index}`, name: 'n', arguments: args } })
    const toolCalls = [0, 1, 2, 3].map((index) => call(index, {}).call)
    await store.append({ type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls } })
    // Appended in one go: one batch.
    const appends = [store.append(call(0, {})), store.append(call(1, cyclic)), store.append(call(2, { big: 1n })), store.append(call(3, { a: 1 }))]
    const settled = await Promise.allSettled(appends)
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect(settled.flatMap((s) => s.status === 'fulfilled' ? [s.value.seq] : [])).toEqual([2, 3])
    expect(settled.flatMap((s) => s.status === 'rejected' ? [(s.reason as PostgresSessionError).code] : [])).toEqual(['ENTRY_INVALID', 'ENTRY_INVALID'])
    expect((settled[2] as PromiseRejectedResult).reason.message).toContain('it cannot be written as JSON (Do not know how to serialize a BigInt)')
    expect((await store.load()).map((e) => e.type === 'tool/call' ? e.call.id : e.type)).toEqual(['message', 'c0', 'c3'])
    await store.close()
  })

  it('refuses an entry a load would refuse, naming the field, storing nothing and going on', async () => {
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id })
    const broken = { type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 7, arguments: {} } } as unknown as NewSessionEntry
    const refused = await store.append(broken).then(() => undefined, (error: PostgresSessionError) => error)
    expect(refused?.code).toBe('ENTRY_INVALID')
    expect(refused?.message).toMatch(new RegExp(`^session entry not appended to postgres session "${id}": "call\\.name" must be a string`))
    await expect(store.append(null as unknown as NewSessionEntry)).rejects.toThrow('entry is null, expected an object with "type"')
    expect((await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })).seq).toBe(1)
    await store.close()
  })

  describe('on a damaged log: refused whole, naming the table, the session, the seq and what is wrong', () => {
    const insert = (id: string, seq: number, entry: object) =>
      db().admin.query(`INSERT INTO ${TABLE} (session_id, seq, entry) VALUES ($1, $2, $3)`, [id, seq, JSON.stringify(entry)])

    it('an entry missing (a gap in seq)', async () => {
      const id = newId()
      await migrate({ connectionString: db().server.url })
      await insert(id, 1, { type: 'turn/end', turn: 1, outcome: 'committed' })
      await insert(id, 3, { type: 'turn/end', turn: 2, outcome: 'committed' })
      const store = postgresSession({ connectionString: db().server.url, id })
      await expect(store.load()).rejects.toThrow(
        `${TABLE} session "${id}": seq runs to 3 but 2 entries are stored (entries are missing); the log is refused as it is`)
      await expect(store.append({ type: 'turn/end', turn: 3, outcome: 'committed' })).rejects.toMatchObject({ code: 'SESSION_DAMAGED' })
      expect(await storedEntries(db().admin, id)).toHaveLength(2)
    })

    it('an entry that is not valid: an agent on it ends the run error and asks the model nothing', async () => {
      const { ctx } = await withKernel({ name: 'none', apply: () => {} })
      const id = newId()
      const store = postgresSession({ connectionString: db().server.url, id })
      await store.append({ type: 'message', message: { role: 'user', content: 'go' } })
      await insert(id, 2, { type: 'turn/end', turn: '2', outcome: 'committed' })
      const provider = scripted([])
      const outcome = await createAgent(ctx, { provider, session: store }).run('continue')
      await store.close?.()
      expect(outcome.error?.message).toBe(`${TABLE} session "${id}" seq 2: "turn" must be a whole number of at least 1, got a string`)
      expect(provider.requests).toHaveLength(0)
    })
  })

  it('has the tool/call committed before the tool body runs', async () => {
    const { ctx } = await withKernel({ name: 'none', apply: () => {} })
    const id = newId()
    let seenByBody: object[] = []
    ctx.tools.register(defineTool({
      name: 'peek', description: 'reads the session from the database', parameters: { type: 'object' },
      execute: async () => { seenByBody = await storedEntries(db().admin, id); return 'ok' },
    }))
    const session = postgresSession({ connectionString: db().server.url, id })
    await createAgent(ctx, { provider: scripted([callMessage([toolCall('call_1', 'peek')])]), session }).run('go')
    await session.close?.()
    expect(seenByBody.at(-1)).toMatchObject({ type: 'tool/call', turn: 1, index: 0, call: { id: 'call_1', name: 'peek' } })
  })

  it('resumes a run whose writer died mid-batch: finished calls are not run again, the rest repaired, under the same keys', async () => {
    const { ctx } = await withKernel({ name: 'none', apply: () => {} })
    const gate = createGate()
    ctx.tools.register(gate.tool('read'))
    const seen: string[] = []
    // Each call's session id and idempotency key, as its pre-execute saw them and as its final result's observers do.
    const started = new Map<string, [string | undefined, string]>()
    const ended = new Map<string, [string | undefined, string]>()
    ctx.plugin({
      name: 'observer', inject: ['tools'],
      apply: (c: Context) => {
        c.on('tools/pre-execute', (exec: ToolExec, next) => { started.set(exec.id, [exec.session?.id, exec.idempotencyKey]); return next() })
        c.on('tools/result', (exec: ToolExec, result: ToolExecutionResult) => {
          seen.push(`${exec.id}:${result.isError ? result.error.info?.code : 'ok'}`)
          ended.set(exec.id, [exec.session?.id, exec.idempotencyKey])
        })
      },
    })
    const id = newId()
    const first = postgresSession({ connectionString: db().server.url, id })
    const dying = createAgent(ctx, { provider: scripted([callMessage([toolCall('c1', 'read'), toolCall('c2', 'read')])]), session: first })
    const run = dying.run('go')
    await gate.whenRunning(2)
    gate.release('c1')
    await expect.poll(async () => (await storedEntries(db().admin, id)).filter((e) => (e as { type: string }).type === 'tool/result'), { timeout: 15_000 }).toHaveLength(1)
    await killWriter(db().admin, id)
    gate.release('c2')
    const died = await run
    expect(died.kind).toBe('error')
    expect(died.error?.message).toMatch(/^postgres session ".+": the connection to PostgreSQL at 127\.0\.0\.1:\d+\/postgres was lost \(.+\); an append in flight was stored whole or not at all, and this store no longer holds the session/)

    seen.length = 0
    const startedBefore = gate.started.length
    const provider = scripted([])
    const resumed = postgresSession({ connectionString: db().server.url, id })
    const outcome = await createAgent(ctx, { provider, session: resumed }).run('continue')
    await resumed.close?.()
    expect(outcome.kind).toBe('completed')
    expect(seen).toEqual([`c2:${TOOL_OUTCOME_UNKNOWN}`])
    expect(started.get('c2')).toEqual([id, expect.any(String)])
    expect(ended.get('c2')).toEqual(started.get('c2'))
    expect(ended.get('c1')![1]).not.toBe(started.get('c2')![1])
    expect(gate.started).toHaveLength(startedBefore)
    expect(validateTranscript(provider.requests[0].messages)).toEqual([])
  })
})
