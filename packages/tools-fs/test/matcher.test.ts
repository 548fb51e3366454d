// grep's regex runs in a worker thread: a deadline ends even a regex that backtracks for ever,
// and the next call gets a fresh worker. The kernel and the timeout plugin are real.
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { TOOL_TIMEOUT, type ToolExecutionResult } from '@rein/kernel'
import * as timeout from '@rein/plugin-timeout-policy'
import { Root } from '@rein/workspace'
import { describe, expect, it, onTestFinished } from 'vitest'
import { Config, type GrepValue } from '../src/index.js'
import { inlineMatcher, workerMatcher, type Matcher } from '../src/matcher.js'
import { grepTool } from '../src/tools/grep.js'
import { valueOf, workspace } from './helpers.js'

/**
 * `grep` on a tree with one line that makes `(a+)+$` backtrack for ever, under `deadlineMs`. The
 * calls meant to succeed get a deadline no loaded machine reaches (starting a worker may take long).
 */
async function grepWith(matcher: Matcher, deadlineMs = 60_000) {
  onTestFinished(() => matcher.dispose())
  const ws = await workspace()
  await ws.put({ 'evil.txt': `${'a'.repeat(64)}!\n`, 'ok.txt': 'fine\nfine again\n' })
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(timeout, { graceMs: 60_000, tools: { grep: deadlineMs } })
  await ctx.start()
  onTestFinished(() => ctx.stop())
  ctx.tools.register(grepTool(Root.open(ws.root, 'test'), Config({ root: ws.root }), matcher))
  let ids = 0
  return (args: Record<string, unknown>) => ctx.tools.execute({ id: `grep_${++ids}`, name: 'grep', arguments: args })
}

const outcome = (result: ToolExecutionResult) => (result.isError ? [result.error.info?.code, result.error.info?.name] : ['OK'])

describe('grep in a worker', () => {
  // graceMs is 60 s: only a worker that is really terminated at the deadline ends the call in time,
  // and it ends as a plain TOOL_TIMEOUT, never as an abandoned call.
  it('ends a catastrophically backtracking regex at the deadline, and the next call gets a fresh worker', async () => {
    const matcher = workerMatcher()
    const grep = await grepWith(matcher)
    const grepIn300ms = await grepWith(matcher, 300)
    expect(outcome(await grep({ pattern: 'fine' }))).toEqual(['OK'])
    expect(matcher.threads()).toBe(1)

    expect(outcome(await grepIn300ms({ pattern: '(a+)+$' }))).toEqual([TOOL_TIMEOUT, undefined])
    await matcher.settled()
    expect(matcher.threads()).toBe(0)

    const next = await grep({ pattern: 'again' })
    expect(valueOf<GrepValue>(next).matches).toEqual([{ path: 'ok.txt', line: 2, text: 'fine again' }])
    expect(matcher.threads()).toBe(1)
  })

  it('finds exactly what matching on this thread finds', async () => {
    const inWorker = await grepWith(workerMatcher())
    const inline = await grepWith(inlineMatcher())
    for (const args of [{ pattern: 'fine' }, { pattern: 'A+!', ignoreCase: true }, { pattern: 'i', maxResults: 1 }]) {
      const [a, b] = [await inWorker(args), await inline(args)]
      expect(valueOf<GrepValue>(a), JSON.stringify(args)).toEqual(valueOf<GrepValue>(b))
    }
  })
})
