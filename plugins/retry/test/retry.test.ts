import { ABORTED, INVALID_ARGS, TOOL_DENIED, TOOL_FAILED, defineTool, failure, type ToolExec } from '@rein/kernel'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import * as retry from '../src/index.js'
import { isRetryable } from '../src/index.js'
import { coded, flaky, flush, harness, recordingSleep, summary, useFakeClock } from './helpers.js'

afterEach(() => { vi.useRealTimers() })
const call = (name = 'flaky') => ({ id: 'c1', name, arguments: {} })

describe('which calls are retried', () => {
  it('retries an idempotent tool until it succeeds, and records the attempts', async () => {
    const { definition, state } = flaky(['ECONNRESET', 'RATE_LIMITED'])
    const ctx = await harness({}, [definition], recordingSleep())
    expect(summary(await ctx.tools.execute(call()))).toEqual(['OK', 3])
    expect(state.runs).toBe(3)
  })

  it('runs a tool that is not marked idempotent exactly once, and writes no meta', async () => {
    const { definition, state } = flaky(['ECONNRESET'], { idempotent: undefined })
    const ctx = await harness({}, [definition], recordingSleep())
    const result = await ctx.tools.execute(call())
    expect([summary(result), state.runs, result.meta]).toEqual([['ECONNRESET', undefined], 1, undefined])
  })

  it('reads the definition at each call: a tool registered again as idempotent is retried', async () => {
    const ctx = await harness({}, [], recordingSleep())
    const plain = flaky(['ECONNRESET'], { idempotent: undefined })
    const remove = ctx.tools.register(plain.definition)
    expect(summary(await ctx.tools.execute(call()))).toEqual(['ECONNRESET', undefined])
    remove()
    const marked = flaky(['ECONNRESET'])
    ctx.tools.register(marked.definition)
    expect([summary(await ctx.tools.execute(call())), plain.state.runs, marked.state.runs]).toEqual([['OK', 2], 1, 2])
  })

  it('stops after maxAttempts and returns the last failure', async () => {
    const { definition, state } = flaky(['ETIMEDOUT', 'EAI_AGAIN', 'UNAVAILABLE', 'TOOL_TIMEOUT'])
    const ctx = await harness({ maxAttempts: 3 }, [definition], recordingSleep())
    const result = await ctx.tools.execute(call())
    expect([summary(result), state.runs]).toEqual([['UNAVAILABLE', 3], 3])
    expect(result.content[0]).toEqual({ type: 'text', text: 'Error: failed with UNAVAILABLE' })
  })

  it('does not retry a code that is not listed', async () => {
    const { definition, state } = flaky([TOOL_FAILED, 'ENOENT'])
    const ctx = await harness({}, [definition], recordingSleep())
    expect([summary(await ctx.tools.execute(call())), state.runs]).toEqual([[TOOL_FAILED, 1], 1])
  })

  it('retries exactly the configured codes when retryOn is given', async () => {
    const { definition, state } = flaky(['ENOENT', 'ECONNRESET'])
    const ctx = await harness({ retryOn: ['ENOENT'] }, [definition], recordingSleep())
    expect([summary(await ctx.tools.execute(call())), state.runs]).toEqual([['ECONNRESET', 2], 2])
  })

  it('retries the transient HTTP codes unless retryHttp is off, and never HTTP_501', async () => {
    const on = flaky(['HTTP_429', 'HTTP_503', 'HTTP_501'])
    const ctx = await harness({ maxAttempts: 5 }, [on.definition], recordingSleep())
    expect([summary(await ctx.tools.execute(call())), on.state.runs]).toEqual([['HTTP_501', 3], 3])
    const off = flaky(['HTTP_503'])
    const ctx2 = await harness({ retryHttp: false }, [off.definition], recordingSleep())
    expect([summary(await ctx2.tools.execute(call())), off.state.runs]).toEqual([['HTTP_503', 1], 1])
  })

  it.each(['ToolTimeoutAbandoned', 'Abandoned'])('never retries a result whose body still runs (info.name %s)', async (abandoned) => {
    let runs = 0
    let finish = () => {}
    const definition = defineTool({
      name: 'slow', description: 'runs on', parameters: { type: 'object' }, idempotent: true,
      execute: () => { runs++; return new Promise<string>((resolve) => { finish = () => resolve('ok') }) },
    })
    // Inside retry: starts the body, then gives up on it at once, as timeout-policy does.
    const giveUp = {
      name: 'gives-up', inject: ['tools'],
      apply: (ctx: Context) => ctx.on('tools/execute', (_exec: ToolExec, next: () => Promise<unknown>) => {
        void next()
        return Promise.resolve(failure('TOOL_TIMEOUT', 'timed out', abandoned))
      }),
    }
    const ctx = new Context()
    ctx.plugin(kernel)
    ctx.plugin(retry.createRetry(recordingSleep()), { maxAttempts: 5 })
    ctx.plugin(giveUp)
    ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => ctx.tools.register(definition) })
    await ctx.start()
    const result = await ctx.tools.execute(call('slow'))
    expect([summary(result), runs]).toEqual([['TOOL_TIMEOUT', 1], 1])
    finish()
  })

  it('still retries a TOOL_TIMEOUT whose body has settled', () => {
    const config = { retryOn: ['TOOL_TIMEOUT'], retryHttp: false }
    expect([isRetryable(failure('TOOL_TIMEOUT', 'late'), config),
      isRetryable(failure('TOOL_TIMEOUT', 'late', 'ToolTimeoutAbandoned'), config)]).toEqual([true, false])
  })

  it('never retries ABORTED, TOOL_DENIED or INVALID_ARGS, whatever retryOn holds', () => {
    const everything = { retryOn: [ABORTED, TOOL_DENIED, INVALID_ARGS, 'X'], retryHttp: true }
    expect([ABORTED, TOOL_DENIED, INVALID_ARGS, 'X'].map((code) => isRetryable(failure(code, 'no'), everything)))
      .toEqual([false, false, false, true])
  })
})

describe('the backoff', () => {
  it('sleeps a full-jitter delay that doubles per retry and is capped by maxDelayMs', async () => {
    const { definition } = flaky(['ECONNRESET', 'ECONNRESET', 'ECONNRESET', 'ECONNRESET'])
    const { delays, sleep } = recordingSleep()
    const ctx = await harness({ maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 700 }, [definition], { sleep, random: () => 0.5 })
    await ctx.tools.execute(call())
    expect(delays).toEqual([100, 200, 350, 350])
  })

  it('is ended at once by an abort, and the last result is returned without another attempt', async () => {
    const { definition, state } = flaky(['ECONNRESET', 'ECONNRESET'])
    const ctx = await harness({ baseDelayMs: 60_000, maxDelayMs: 60_000 }, [definition], { random: () => 0.99 })
    useFakeClock()
    const controller = new AbortController()
    const pending = ctx.tools.execute(call(), { signal: controller.signal })
    await flush()
    expect(vi.getTimerCount()).toBe(1)
    controller.abort()
    await flush()
    expect(summary(await pending)).toEqual(['ECONNRESET', 1])
    expect([state.runs, vi.getTimerCount()]).toEqual([1, 0])
  })

  it('uses real timers in the module\'s own plugin', async () => {
    const { definition, state } = flaky(['ECONNRESET'])
    const ctx = new Context()
    ctx.plugin(kernel)
    ctx.plugin(retry, { baseDelayMs: 1000 })
    ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => ctx.tools.register(definition) })
    await ctx.start()
    useFakeClock()
    const pending = ctx.tools.execute(call())
    await flush()
    expect(state.runs).toBe(1)
    await vi.advanceTimersByTimeAsync(1000)
    expect(summary(await pending)).toEqual(['OK', 2])
  })
})

describe('the floor before retrying a rate-limit or overload failure', () => {
  const zero = { maxAttempts: 5, baseDelayMs: 0, maxDelayMs: 0 }

  it('sleeps at least minOverloadDelayMs (default 1000) after HTTP_429, HTTP_503, RATE_LIMITED and UNAVAILABLE, even with zero delays', async () => {
    const { definition, state } = flaky(['HTTP_429', 'HTTP_503', 'RATE_LIMITED', 'UNAVAILABLE'])
    const { delays, sleep } = recordingSleep()
    const ctx = await harness(zero, [definition], { sleep, random: () => 0.5 })
    expect(summary(await ctx.tools.execute(call()))).toEqual(['OK', 5])
    expect([delays, state.runs]).toEqual([[1000, 1000, 1000, 1000], 5])
  })

  it('leaves other retryable codes to the backoff alone', async () => {
    const { definition } = flaky(['ECONNRESET', 'HTTP_500', 'TOOL_TIMEOUT', 'HTTP_504'])
    const { delays, sleep } = recordingSleep()
    const ctx = await harness(zero, [definition], { sleep, random: () => 0.5 })
    await ctx.tools.execute(call())
    expect(delays).toEqual([0, 0, 0, 0])
  })

  it('keeps a longer backoff draw, takes a configured floor, and 0 turns it off', async () => {
    const longer = recordingSleep()
    const a = await harness({ baseDelayMs: 4000, maxDelayMs: 4000 }, [flaky(['HTTP_429']).definition], { sleep: longer.sleep, random: () => 0.75 })
    await a.tools.execute(call())
    const custom = recordingSleep()
    const b = await harness({ ...zero, minOverloadDelayMs: 250 }, [flaky(['HTTP_503']).definition], { sleep: custom.sleep, random: () => 0.5 })
    await b.tools.execute(call())
    const off = recordingSleep()
    const c = await harness({ ...zero, minOverloadDelayMs: 0 }, [flaky(['HTTP_503']).definition], { sleep: off.sleep, random: () => 0.5 })
    await c.tools.execute(call())
    expect([longer.delays, custom.delays, off.delays]).toEqual([[3000], [250], [0]])
  })

  it('holds the module\'s own plugin on its timer: no second attempt before the floor has passed', async () => {
    const { definition, state } = flaky(['HTTP_503'])
    const ctx = new Context()
    ctx.plugin(kernel)
    ctx.plugin(retry, zero)
    ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => ctx.tools.register(definition) })
    await ctx.start()
    useFakeClock()
    const pending = ctx.tools.execute(call())
    await flush()
    await vi.advanceTimersByTimeAsync(999)
    expect(state.runs).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect([summary(await pending), state.runs]).toEqual([['OK', 2], 2])
  })
})

describe('the signal of each attempt', () => {
  it('is fresh, follows the caller\'s, and the caller\'s is restored afterwards', async () => {
    const signals: AbortSignal[] = []
    let thirdStarted = () => {}
    const third = new Promise<void>((resolve) => { thirdStarted = resolve })
    let failNext = true
    const { definition } = flaky([], {
      execute: (_args: unknown, exec: ToolExec) => {
        signals.push(exec.signal)
        if (failNext) { failNext = signals.length < 2; throw coded('ECONNRESET') }
        thirdStarted()
        return new Promise((_resolve, reject) => exec.signal.addEventListener('abort', () => reject(exec.signal.reason)))
      },
    })
    const ctx = await harness({ maxAttempts: 5 }, [definition], recordingSleep())
    const restored: boolean[] = []
    ctx.plugin({
      name: 'outer', inject: ['tools'],
      apply: (ctx: Context) => ctx.on('tools/execute', async (exec, next) => {
        const before = exec.signal
        const result = await next()
        restored.push(exec.signal === before)
        return result
      }, { prepend: true }),
    })
    await ctx.start()
    const controller = new AbortController()
    const pending = ctx.tools.execute(call(), { signal: controller.signal })
    await third
    const reason = new Error('stop')
    controller.abort(reason)
    const result = await pending
    expect(summary(result)).toEqual([ABORTED, 3])
    expect(new Set([...signals, controller.signal]).size).toBe(4)
    expect(signals.map((s) => s.aborted)).toEqual([false, false, true])
    expect(signals[2].reason).toBe(reason)
    expect(restored).toEqual([true])
  })
})
