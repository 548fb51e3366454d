/**
 * A continuation killed with SIGKILL (DESIGN.md §7.2, §7.3), over a JSONL session: the batch
 * `[c0 push (asks), c1 note ${c0.result}]` parks, c0 is answered, and a child process continuing
 * the session is killed inside c0's body. The resume in this process reconciles c0 (`ran: true`)
 * and the held c1 substitutes the reconciled value: a result a later call of its batch
 * references keeps its value in the session, repaired or not. And a process killed while a call
 * runs, after a later call parked, leaves that call parked: its request is already written.
 */
import { existsSync } from 'node:fs'
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { TOOL_OUTCOME_UNKNOWN } from '@rein/kernel'
import { scripted } from '@rein/testing'
import { answerApproval, createAgent, jsonlSession, readSession } from '../src/index.js'
import { approvalHarness, call } from './approval-harness.js'
import { killChildAt, tempDir } from './helpers.js'

const child = fileURLToPath(new URL('./fixtures/approval-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/index.js', import.meta.url))

describe('a continuation killed inside an answered call\'s body', () => {
  it('reconciles the call on resume, keeping its value, so the call that references it gets that value', async () => {
    expect(existsSync(built), 'build first: npx -y pnpm@10 build').toBe(true)
    const path = join(await tempDir('rein-approval-kill-'), 's.jsonl')
    const h = await approvalHarness(['push'], { push: () => ({ ran: true, value: { sha: 'abc123' } }) })
    const batch = { role: 'assistant' as const, content: '', toolCalls: [call('c0', 'push', 1), call('c1', 'note', '${c0.result}')] }
    const first = jsonlSession(path)
    const parked = await createAgent(h.ctx, { provider: scripted([batch]), session: first, approvals: 'park' }).run('go')
    expect(parked.approvals?.map((a) => a.callId)).toEqual(['c0'])
    await answerApproval(first, parked.approvals![0].id, 'allow-once')
    await first.close!()

    await killChildAt(child, [path], 'push')

    const store = jsonlSession(path)
    const outcome = await createAgent(h.ctx, { provider: scripted([{ role: 'assistant', content: 'done' }]), session: store, approvals: 'park' }).run()
    await store.close!()
    expect(outcome.kind).toBe('completed')
    expect(h.ledger).toEqual(['note:{"sha":"abc123"}'])
    const results = (await readSession(path)).entries.flatMap((e) => e.type === 'tool/result' ? [e] : [])
    expect(results.map((e) => e.message.toolCallId)).toEqual(['c0', 'c1'])
    expect(results[0]).toMatchObject({ meta: { reconciled: true }, value: { sha: 'abc123' } })
  })
})

describe('a process killed while an earlier call runs, after a later call parked', () => {
  it('leaves the parked call parked (its request is written as it parks, not behind the earlier call), so resume continues it', async () => {
    const dir = await tempDir('rein-approval-kill-')
    const path = join(dir, 's.jsonl')
    const h = await approvalHarness(['note'])
    const release = deferred()
    h.hold = (id) => id === 'r' ? release.promise : undefined
    const noteParked = deferred()
    h.ctx.on('agent/call-end', (event) => { if (event.id === 'n') noteParked.resolve() })
    const batch = { role: 'assistant' as const, content: '', toolCalls: [call('r', 'read', 1), call('n', 'note', 2)] }
    const store = jsonlSession(path)
    const running = createAgent(h.ctx, { provider: scripted([batch, { role: 'assistant', content: 'done' }]), session: store, approvals: 'park' }).run('go')
    await noteParked.promise
    await store.load() // every append issued so far is on disk
    // What a SIGKILL now leaves: the file as it is, r still in its body.
    const killed = join(dir, 'killed.jsonl')
    await copyFile(path, killed)
    release.resolve()
    expect((await running).kind).toBe('awaiting-approval')
    await store.close!()

    const resumed = await approvalHarness(['note'])
    const again = jsonlSession(killed)
    const outcome = await createAgent(resumed.ctx, { provider: scripted([]), session: again, approvals: 'park' }).run()
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals?.map((a) => a.callId)).toEqual(['n'])
    const codes = (await again.load()).flatMap((e) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : [])
    expect(codes).toEqual([`r:${TOOL_OUTCOME_UNKNOWN}`])
    expect(resumed.ledger).toEqual([])
    await again.close!()
  })
})

/** A promise with its resolve at hand. */
function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => { resolve = r })
  return { promise, resolve }
}
