/**
 * The three execute-stage policies stacked in the recommended order — cache, retry,
 * timeout-policy (outermost first) — against a real kernel, on fake timers.
 */
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { TOOL_TIMEOUT, defineTool, type ToolDefinition, type ToolExec } from '@rein/kernel'
import { afterEach, expect, it, vi } from 'vitest'
import * as cache from '../../cache/src/index.js'
import * as timeout from '../../timeout-policy/src/index.js'
import { createRetry } from '../src/index.js'
import { flush, useFakeClock } from './helpers.js'

afterEach(() => { vi.useRealTimers() })

async function stack(tool: ToolDefinition) {
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(cache)
  ctx.plugin(createRetry({ random: () => 0.5 }), { baseDelayMs: 200 })
  ctx.plugin(timeout, { graceMs: 50 })
  ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => ctx.tools.register(tool) })
  await ctx.start()
  expect(ctx.tools.chain('tools/execute')).toEqual(['cache', 'retry', 'timeout-policy'])
  return ctx
}

/** Settles `promise` by running every timer it needs. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  await flush()
  await vi.runAllTimersAsync()
  return promise
}

const call = (id: string) => ({ id, name: 'fetch_page', arguments: { url: 'https://example.test/a' } })

it('retries a tool that times out twice, caches its success, and serves the next call from the cache', async () => {
  const state = { runs: 0 }
  const ctx = await stack(defineTool({
    name: 'fetch_page', description: 'flaky', parameters: { type: 'object' }, idempotent: true, timeoutMs: 100,
    execute: (_args: unknown, exec: ToolExec) => {
      if (++state.runs > 2) return 'page'
      const signal = exec.signal
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
    },
  }))
  useFakeClock()
  const start = Date.now()
  const first = await settle(ctx.tools.execute(call('c1')))
  expect(first).toMatchObject({ isError: false, value: 'page', meta: { attempts: 3 } })
  // two deadlines of 100ms, and full-jitter sleeps of 0.5 * 200 and 0.5 * 400
  expect(Date.now() - start).toBe(100 + 100 + 100 + 200)
  const second = await settle(ctx.tools.execute(call('c2')))
  expect(second).toMatchObject({ isError: false, value: 'page', meta: { cacheHit: true } })
  expect(second.meta?.attempts).toBeUndefined()
  expect([state.runs, vi.getTimerCount()]).toEqual([3, 0])
})

it('never caches a failure: a tool that always hangs is abandoned on each attempt, and runs again next time', async () => {
  const state = { runs: 0 }
  const ctx = await stack(defineTool({
    name: 'fetch_page', description: 'hangs', parameters: { type: 'object' }, idempotent: true, timeoutMs: 100,
    execute: () => { state.runs++; return new Promise(() => {}) },
  }))
  useFakeClock()
  const first = await settle(ctx.tools.execute(call('c1')))
  expect(first.isError && [first.error.info, first.meta]).toEqual([{ code: TOOL_TIMEOUT, name: 'ToolTimeoutAbandoned' }, { attempts: 3 }])
  expect(first.content[0]).toEqual({ type: 'text', text: 'Error: tool call timed out after 100ms' })
  const second = await settle(ctx.tools.execute(call('c2')))
  expect(second.meta).toEqual({ attempts: 3 })
  expect([state.runs, vi.getTimerCount()]).toEqual([6, 0])
})
