/** no-friday-deploys on a real kernel (`withKernel` from @rein/testing), on a fixed day. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { defineTool, TOOL_DENIED, type ToolExecutionResult } from '@rein/kernel'
import { withKernel } from '@rein/testing'
import * as policy from '../policies/no-friday-deploys.js'

const THURSDAY = new Date(2026, 0, 1, 15)
const FRIDAY = new Date(2026, 0, 2, 15)

/** Runs `bash` with `command` through the kernel and the policy, on `day`. */
async function bash(day: Date, command: string, config: object = {}): Promise<ToolExecutionResult> {
  const { ctx } = await withKernel(policy.withClock(() => day), config)
  ctx.tools.register(defineTool({
    name: 'bash',
    description: 'Runs a shell command.',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    execute: () => 'ran',
  }))
  try {
    return await ctx.tools.execute({ id: 'c1', name: 'bash', arguments: { command } })
  } finally {
    await ctx.stop()
  }
}

describe('no-friday-deploys', () => {
  it('denies a deploy on Friday, with a reason the model can act on', async () => {
    const result = await bash(FRIDAY, 'npm run deploy')
    assert.equal(result.isError && result.error.info?.code, TOOL_DENIED)
    assert.match(result.content[0]?.type === 'text' ? result.content[0].text : '', /no deploys today \("deploy"/)
  })

  it('lets the same command run on Thursday, and other commands run on Friday', async () => {
    assert.equal((await bash(THURSDAY, 'npm run deploy')).isError, false)
    assert.equal((await bash(FRIDAY, 'npm test')).isError, false)
  })

  it('takes its days and words from the config', async () => {
    assert.equal((await bash(THURSDAY, 'make ship', { days: [4], words: ['ship'] })).isError, true)
  })

  it('fills in its defaults, and refuses a bad config naming the key', () => {
    assert.deepEqual(policy.Config({} as policy.Config).days, [5])
    assert.throws(() => policy.Config({ days: ['friday'] } as never), /days/)
  })
})
