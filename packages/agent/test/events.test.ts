import { expect, it } from 'vitest'
import { callMessage, toolCall } from '@rein/testing'
import { gatedHarness, outcomes, scriptedAgent } from './helpers.js'

it('contains a throwing event listener: the run and its results are unaffected', async () => {
  const { ctx, gate } = await gatedHarness()
  ctx.on('agent/call-start', () => { throw new Error('listener bug') })
  const ended: string[] = []
  ctx.on('agent/call-end', (event) => { ended.push(event.id) })
  gate.release('a')
  const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')])])
  const outcome = await agent.run('go')
  expect(outcome.kind).toBe('completed')
  expect(outcomes(outcome.messages)).toEqual(['a:ok'])
  expect(ended).toEqual(['a'])
})
