/**
 * The rules of approvals (`ApprovalLedger` of `@rein/agent`), kept as the JSONL store keeps
 * them: a log that breaks them (a request for a call never made, an answer given twice) is
 * `SESSION_DAMAGED` on `load` and `peek`, so it is never listed nor answered; an `append` or
 * `appendAfter` that would break them is refused alone (`ENTRY_INVALID`), storing nothing.
 */
import { expect, it } from 'vitest'
import { answerApproval, pendingApprovals, type NewSessionEntry } from '@rein/agent'
import { migrate, postgresSession } from '../src/index.js'
import { TABLE, describeWithPostgres, newId, rejection } from './helpers.js'

const user: NewSessionEntry = { type: 'message', message: { role: 'user', content: 'go' } }
const asked: NewSessionEntry = { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'push', arguments: '{}' }] } }
const request = (id: string, turn = 1, callId = 'c1'): NewSessionEntry =>
  ({ type: 'approval/request', id, turn, index: 0, callId, tool: 'push', arguments: {}, rule: 'push-rule' })
const answer = (id: string, at = 1): NewSessionEntry => ({ type: 'approval/answer', id, answer: 'allow-once', at })

describeWithPostgres('postgresSession: the rules of approvals', (db) => {
  const open = (id: string) => postgresSession({ connectionString: db().server.url, id })
  const seqs = async (id: string) =>
    (await db().admin.query(`SELECT seq FROM ${TABLE} WHERE session_id = $1 ORDER BY seq`, [id])).rows.map((r) => Number(r.seq))

  /** Session `id` holding `entries`, inserted by hand (as a forger or a bad restore would). */
  async function forged(entries: NewSessionEntry[]): Promise<string> {
    const id = newId()
    await migrate({ connectionString: db().server.url })
    for (const [i, entry] of entries.entries()) {
      await db().admin.query(`INSERT INTO ${TABLE} (session_id, seq, entry) VALUES ($1, $2, $3)`, [id, i + 1, JSON.stringify(entry)])
    }
    return id
  }

  it('refuses a request for a call never made on load, peek and append: never listed, never answered', async () => {
    const id = await forged([user, asked, request('apr_forged', 7, 'rm')])
    const expected = `${TABLE} session "${id}" seq 3: approval request "apr_forged" names call 0 of turn 7 as "rm", which no assistant message before it made`
    const reader = open(id)
    await expect(pendingApprovals(reader)).rejects.toMatchObject({ code: 'SESSION_DAMAGED', message: expected })
    await expect(answerApproval(reader, 'apr_forged', 'allow-once')).rejects.toMatchObject({ code: 'SESSION_DAMAGED' })
    await reader.close()
    for (const call of ['load', 'append'] as const) {
      const store = open(id)
      await expect(call === 'load' ? store.load() : store.append(user)).rejects.toMatchObject({ code: 'SESSION_DAMAGED', message: expected })
      await store.close()
    }
    expect(await seqs(id)).toEqual([1, 2, 3])
  })

  it('refuses a request answered twice on load', async () => {
    const id = await forged([user, asked, request('apr_1'), answer('apr_1'), answer('apr_1', 2)])
    const store = open(id)
    await expect(store.load()).rejects.toMatchObject({
      code: 'SESSION_DAMAGED',
      message: `${TABLE} session "${id}" seq 5: approval answer: approval request "apr_1" (call c1, tool "push") is already answered (allow-once)`,
    })
    await store.close()
  })

  it('refuses to append an answer to no request, storing nothing and going on: the session still loads', async () => {
    const id = newId()
    const store = open(id)
    await store.append(user)
    const refused = await rejection(store.append(answer('apr_nope')))
    expect(refused.code).toBe('ENTRY_INVALID')
    expect(refused.message).toBe(`session entry not appended to postgres session "${id}": approval answer: there is no approval request "apr_nope" in this session; a load would refuse the session after it`)
    expect((await store.append(asked)).seq).toBe(2)
    await store.close()
    const again = open(id)
    expect(await again.load()).toHaveLength(2)
    await again.close()
  })

  it('refuses alone, in one batch, a second answer to a request and a request for a call never made', async () => {
    const id = newId()
    const store = open(id)
    await store.load()
    const appends = [user, asked, request('apr_1'), answer('apr_1'), answer('apr_1', 2), request('apr_2', 1, 'c9'), { type: 'turn/end', turn: 1, outcome: 'committed' } as NewSessionEntry]
    const settled = await Promise.allSettled(appends.map((entry) => store.append(entry)))
    expect(settled.map((s) => s.status === 'fulfilled' ? s.value.seq : (s.reason as { code: string }).code))
      .toEqual([1, 2, 3, 4, 'ENTRY_INVALID', 'ENTRY_INVALID', 5])
    await store.close()
    expect(await seqs(id)).toEqual([1, 2, 3, 4, 5])
  })

  it('refuses an appendAfter that breaks them, with or without a peek first, with or without the writer', async () => {
    const id = newId()
    const writer = open(id)
    for (const entry of [user, asked, request('apr_1'), answer('apr_1')]) await writer.append(entry)
    await expect(writer.appendAfter(answer('apr_1', 2), 4)).rejects.toMatchObject({ code: 'ENTRY_INVALID' })
    await writer.close()
    const reader = open(id)
    await expect(reader.appendAfter(answer('apr_1', 2), 4)).rejects.toMatchObject({ code: 'ENTRY_INVALID' })
    expect(await reader.peek()).toHaveLength(4)
    await expect(reader.appendAfter(answer('apr_nope'), 4)).rejects.toThrow(/no approval request "apr_nope"/)
    expect(await reader.appendAfter(request('apr_2'), 4)).toMatchObject({ seq: 5 })
    expect(await reader.appendAfter(answer('apr_2'), 5)).toMatchObject({ seq: 6 })
    await expect(reader.appendAfter(answer('apr_2', 2), 6)).rejects.toThrow(/"apr_2" .* is already answered/)
    expect(await reader.appendAfter(answer('apr_2', 2), 5)).toBeUndefined() // the log moved on: nothing checked, nothing written
    await reader.close()
    expect(await seqs(id)).toEqual([1, 2, 3, 4, 5, 6])
  })
})
