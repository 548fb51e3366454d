/** A run that parks for approval: its outcome on the run's span, not an error; the parked call's span names its code. */
import { afterEach, describe, expect, it } from 'vitest'
import { SpanStatusCode, context, trace } from '@opentelemetry/api'
import { APPROVAL_PARKED } from '@rein/kernel'
import { callMessage, toolCall } from '@rein/testing'
import { harness, recordSpans, scriptedAgent, spanNamed } from './helpers.js'

afterEach(() => {
  trace.disable()
  context.disable()
})

describe('a run awaiting approval', () => {
  it('ends invoke_agent with rein.run.outcome awaiting-approval and no error status', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({}, (c) => {
      c.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'a person decides' }))
      c.set('approval', { request: async () => 'park' })
    })
    const outcome = await scriptedAgent(ctx, [callMessage([toolCall('w', 'write')])], { approvals: 'park' }).run('go')
    expect(outcome.kind).toBe('awaiting-approval')
    const root = spanNamed(spans(), 'invoke_agent scout')
    expect(root.attributes['rein.run.outcome']).toBe('awaiting-approval')
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR)
    expect(spanNamed(spans(), 'execute_tool write').attributes['error.type']).toBe(APPROVAL_PARKED)
  })
})
