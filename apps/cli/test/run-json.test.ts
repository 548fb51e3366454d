/**
 * `rein run --json`'s document for the outcomes that leave calls parked: a parked run and an
 * interrupted one both carry the requests that wait; a run that left nothing parked has none.
 */
import type { RunOutcome } from '@rein/agent'
import { describe, expect, it } from 'vitest'
import { runJson } from '../src/progress/run-json.js'
import { RunStats } from '../src/progress/stats.js'

const parked = { id: 'apr_1', callId: 'b1', tool: 'shell', arguments: { cmd: 'ls' }, reason: 'shell commands need a person' }
const request = { id: 'apr_1', callId: 'b1', tool: 'shell', arguments: { cmd: 'ls' }, reason: 'shell commands need a person', requestedAt: null, expiresAt: null, expired: false }

const json = (outcome: RunOutcome) => runJson(outcome, new RunStats(), 'session.jsonl')

describe('rein run --json: the requests that wait', () => {
  it('are listed for awaiting-approval, and for an aborted run that left calls parked', () => {
    expect(json({ kind: 'awaiting-approval', messages: [], approvals: [parked] })).toMatchObject({ ok: false, outcome: 'awaiting-approval', approvals: [request] })
    expect(json({ kind: 'aborted', messages: [], approvals: [parked] })).toMatchObject({ ok: false, outcome: 'aborted', approvals: [request] })
  })

  it('are absent when an aborted run left nothing parked', () => {
    expect(json({ kind: 'aborted', messages: [] })).not.toHaveProperty('approvals')
    expect(json({ kind: 'aborted', messages: [], approvals: [] })).not.toHaveProperty('approvals')
  })
})
