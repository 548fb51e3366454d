import { defineTool, type ToolExec } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import * as cache from '../src/index.js'
import { harness, summary } from './helpers.js'

/** An idempotent tool whose answer depends on the caller's session (the reviewer's inbox case). */
function inbox(name = 'read_inbox') {
  const state = { runs: 0 }
  const boxes: Record<string, string> = { alice: 'alice: your 2FA code is 771204', bob: 'bob: lunch at noon?' }
  const definition = defineTool({
    name, description: "the current user's inbox", parameters: { type: 'object' }, idempotent: true,
    execute: (_args: unknown, exec: ToolExec) => { state.runs++; return boxes[exec.session?.id ?? ''] ?? '(no session)' },
  })
  return { definition, state }
}

const text = (result: { content: Array<{ type: string, text?: string }> }) => result.content.map((block) => block.text).join('')
const as = (session: string | undefined, id: string, name = 'read_inbox') =>
  [{ id, name, arguments: {} }, session === undefined ? {} : { session: { id: session } }] as const

describe('sessions', () => {
  it('keep their own entries by default: the same call in two sessions runs twice, each sees its own answer', async () => {
    const { definition, state } = inbox()
    const ctx = await harness({}, [definition])
    const alice = await ctx.tools.execute(...as('alice', 'a1'))
    const bob = await ctx.tools.execute(...as('bob', 'b1'))
    const aliceAgain = await ctx.tools.execute(...as('alice', 'a2'))
    expect(text(alice)).toContain('771204')
    expect(text(bob)).toBe('bob: lunch at noon?')
    expect(summary(bob)).toEqual(['OK', undefined, undefined])
    expect([text(aliceAgain), summary(aliceAgain)]).toEqual([text(alice), ['OK', true, undefined]])
    expect(state.runs).toBe(2)
  })

  it('do not join each other\'s runs in flight', async () => {
    const { definition, state } = inbox()
    const ctx = await harness({}, [definition])
    const [alice, bob] = await Promise.all([ctx.tools.execute(...as('alice', 'a1')), ctx.tools.execute(...as('bob', 'b1'))])
    expect([text(alice), text(bob), state.runs]).toEqual(['alice: your 2FA code is 771204', 'bob: lunch at noon?', 2])
  })

  it('calls without a session share with each other, never with a session', async () => {
    const { definition, state } = inbox()
    const ctx = await harness({}, [definition])
    await ctx.tools.execute(...as(undefined, 'n1'))
    const again = await ctx.tools.execute(...as(undefined, 'n2'))
    const alice = await ctx.tools.execute(...as('alice', 'a1'))
    expect([summary(again)[1], text(alice), state.runs]).toEqual([true, 'alice: your 2FA code is 771204', 2])
  })

  it('shareAcrossSessions: true restores one shared answer for every session', async () => {
    const { definition, state } = inbox()
    const ctx = await harness({ shareAcrossSessions: true }, [definition])
    const alice = await ctx.tools.execute(...as('alice', 'a1'))
    const bob = await ctx.tools.execute(...as('bob', 'b1'))
    expect([text(bob), summary(bob), state.runs]).toEqual([text(alice), ['OK', true, undefined], 1])
  })

  it('shareAcrossSessions as a list shares only the tools named', async () => {
    const perUser = inbox()
    const global = inbox('read_docs')
    const ctx = await harness({ shareAcrossSessions: ['read_docs'] }, [perUser.definition, global.definition])
    for (const [session, id] of [['alice', 'a'], ['bob', 'b']]) {
      await ctx.tools.execute(...as(session, `${id}1`))
      await ctx.tools.execute(...as(session, `${id}2`, 'read_docs'))
    }
    expect([perUser.state.runs, global.state.runs]).toEqual([2, 1])
  })

  it('the option defaults to false and rejects other values', () => {
    expect(cache.Config({}).shareAcrossSessions).toBe(false)
    expect(() => cache.Config({ shareAcrossSessions: 'yes' as never })).toThrow(/shareAcrossSessions/)
  })
})
