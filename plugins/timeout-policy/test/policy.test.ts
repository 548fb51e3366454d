import { ABANDONED_NAMES, TOOL_TIMEOUT, ABORTED, type ToolExec } from '@rein/kernel'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { ABANDONED, Config, DEFAULT_TIMEOUT_MS, deadlineFor } from '../src/index.js'
import { cooperative, flush, harness, outcome, stuck, tool, track, useFakeClock } from './helpers.js'

afterEach(() => { vi.useRealTimers() })

describe('the deadline', () => {
  it('aborts a cooperative tool when it fires and returns TOOL_TIMEOUT with the exact message', async () => {
    let reason: unknown
    const ctx = await harness({}, [tool('slow', (args, exec) => {
      exec.signal.addEventListener('abort', () => { reason = exec.signal.reason })
      return cooperative(args, exec)
    }, { timeoutMs: 100 })])
    useFakeClock()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'slow', arguments: {} }))
    await vi.advanceTimersByTimeAsync(99); await flush()
    expect(outcome(call.result)).toEqual(['pending'])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, undefined])
    expect(call.result!.content[0]).toEqual({ type: 'text', text: 'Error: tool call timed out after 100ms' })
    expect((reason as DOMException).name).toBe('TimeoutError')
    expect(vi.getTimerCount()).toBe(0)
  })

  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])('gives a tool named %s the default deadline', async (name) => {
    const ctx = await harness({ defaultMs: 100, graceMs: 0 }, [tool(name, stuck)])
    useFakeClock()
    const call = track(ctx.tools.execute({ id: 'c1', name, arguments: {} }))
    await vi.advanceTimersByTimeAsync(99); await flush()
    expect(outcome(call.result)).toEqual(['pending'])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, ABANDONED])
  })

  it('treats an override that is not a number as not set', () => {
    const config = { ...Config({ defaultMs: 700 }), tools: { odd: 'soon', none: undefined } as unknown as Record<string, number> }
    expect(['odd', 'none', 'constructor'].map((name) => deadlineFor(config, name, undefined))).toEqual([700, 700, 700])
    expect(deadlineFor(config, 'odd', tool('odd', stuck, { timeoutMs: 50 }))).toBe(50)
  })

  it('is TOOL_TIMEOUT even when the tool answers with a success after the deadline, within the grace', async () => {
    let finish = (_value: string) => {}
    const ctx = await harness({ graceMs: 500 }, [tool('late', () => new Promise<string>((resolve) => { finish = resolve }), { timeoutMs: 100 })])
    useFakeClock()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'late', arguments: {} }))
    await vi.advanceTimersByTimeAsync(200)
    finish('too late'); await flush()
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, undefined])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('never delays a tool that ignores its signal by more than timeoutMs + graceMs', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 5000 }), async (timeoutMs, graceMs) => {
      vi.useRealTimers()
      const ctx = await harness({ graceMs }, [tool('stuck', stuck, { timeoutMs })])
      useFakeClock()
      const call = track(ctx.tools.execute({ id: 'c1', name: 'stuck', arguments: {} }))
      await vi.advanceTimersByTimeAsync(timeoutMs + graceMs - 1); await flush()
      expect(outcome(call.result)).toEqual(['pending'])
      await vi.advanceTimersByTimeAsync(1); await flush()
      expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, 'ToolTimeoutAbandoned'])
      expect(call.result!.content[0]).toEqual({ type: 'text', text: `Error: tool call timed out after ${timeoutMs}ms` })
      expect(vi.getTimerCount()).toBe(0)
      await ctx.stop()
    }), { numRuns: 25 })
  })

  it('takes the config override first, then the definition\'s timeoutMs, then defaultMs', async () => {
    const ctx = await harness({ defaultMs: 300, tools: { pinned: 50 } }, [
      tool('pinned', cooperative, { timeoutMs: 100 }),
      tool('declared', cooperative, { timeoutMs: 100 }),
      tool('plain', cooperative),
    ])
    useFakeClock()
    const calls = ['pinned', 'declared', 'plain'].map((name) => track(ctx.tools.execute({ id: name, name, arguments: {} })))
    const settledAt = async (ms: number) => { await vi.advanceTimersByTimeAsync(ms); await flush(); return calls.map((c) => outcome(c.result)[0]) }
    expect(await settledAt(50)).toEqual([TOOL_TIMEOUT, 'pending', 'pending'])
    expect(await settledAt(50)).toEqual([TOOL_TIMEOUT, TOOL_TIMEOUT, 'pending'])
    expect(await settledAt(200)).toEqual([TOOL_TIMEOUT, TOOL_TIMEOUT, TOOL_TIMEOUT])
  })

  it('ends a never-settling tool without timeoutMs with TOOL_TIMEOUT at the configured defaultMs', async () => {
    const ctx = await harness({ defaultMs: 200, graceMs: 50 }, [tool('hung', stuck)])
    useFakeClock()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'hung', arguments: {} }))
    await vi.advanceTimersByTimeAsync(249); await flush()
    expect(outcome(call.result)).toEqual(['pending'])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, 'ToolTimeoutAbandoned'])
    expect(call.result!.content[0]).toEqual({ type: 'text', text: 'Error: tool call timed out after 200ms' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('gives a tool that names no deadline the documented 30 s default when the config sets none', async () => {
    const ctx = await harness({}, [tool('hung', stuck)])
    useFakeClock()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'hung', arguments: {} }))
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 1000 - 1); await flush()
    expect(outcome(call.result)).toEqual(['pending'])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, 'ToolTimeoutAbandoned'])
    expect(call.result!.content[0]).toEqual({ type: 'text', text: 'Error: tool call timed out after 30000ms' })
  })

  it('sets no deadline only for a value past what a timer can hold (2^31 ms and more)', async () => {
    let finish = (_value: string) => {}
    const ctx = await harness({ defaultMs: 2 ** 31 }, [tool('free', () => new Promise<string>((resolve) => { finish = resolve }))])
    useFakeClock()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'free', arguments: {} }))
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(24 * 3600_000); await flush()
    expect(outcome(call.result)).toEqual(['pending'])
    finish('done'); await flush()
    expect(call.result).toMatchObject({ isError: false, value: 'done' })
  })
})

describe('a caller abort', () => {
  it('that comes first stays ABORTED, even when the deadline passes meanwhile', async () => {
    let finish = () => {}
    const ctx = await harness({ graceMs: 1000 }, [tool('slow', (_args, exec) => new Promise((_resolve, reject) => {
      finish = () => reject(exec.signal.reason)
    }), { timeoutMs: 100 })])
    useFakeClock()
    const controller = new AbortController()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'slow', arguments: {} }, { signal: controller.signal }))
    await vi.advanceTimersByTimeAsync(50)
    controller.abort()
    await vi.advanceTimersByTimeAsync(200)
    finish(); await flush()
    expect(outcome(call.result)).toEqual([ABORTED, undefined])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('reaches the tool through its signal', async () => {
    let started = () => {}
    const running = new Promise<void>((resolve) => { started = resolve })
    const ctx = await harness({}, [tool('slow', (args, exec) => { started(); return cooperative(args, exec) }, { timeoutMs: 100 })])
    const controller = new AbortController()
    const result = ctx.tools.execute({ id: 'c1', name: 'slow', arguments: {} }, { signal: controller.signal })
    await running
    controller.abort()
    expect(outcome(await result)).toEqual([ABORTED, undefined])
  })

  it('gives up on a tool that ignores it after graceMs, with or without a deadline', async () => {
    const ctx = await harness({ graceMs: 250, defaultMs: 2 ** 31 }, [tool('stuck', stuck, { timeoutMs: 10_000 }), tool('free', stuck)])
    useFakeClock()
    const controller = new AbortController()
    const calls = ['stuck', 'free'].map((name) => track(ctx.tools.execute({ id: name, name, arguments: {} }, { signal: controller.signal })))
    await vi.advanceTimersByTimeAsync(10)
    controller.abort()
    await vi.advanceTimersByTimeAsync(249); await flush()
    expect(calls.map((c) => outcome(c.result))).toEqual([['pending'], ['pending']])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect(calls.map((c) => outcome(c.result))).toEqual([[ABORTED, 'ToolTimeoutAbandoned'], [ABORTED, 'ToolTimeoutAbandoned']])
    expect(calls[0].result!.content[0]).toEqual({ type: 'text', text: 'Error: tool call aborted' })
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('progress as a heartbeat', () => {
  /** Reports progress every 80ms, three times, then waits for its signal; notes when it aborted. */
  function beating(abortedAt: number[]) {
    return tool('beating', async (_args, exec) => {
      exec.signal.addEventListener('abort', () => abortedAt.push(Date.now()))
      for (let i = 1; i <= 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 80))
        exec.progress({ progress: i, total: 3 })
      }
      return cooperative({}, exec)
    }, { timeoutMs: 100 })
  }

  it('restarts the deadline on every exec.progress() when resetOnProgress is set, and forwards the report', async () => {
    const abortedAt: number[] = []
    const ctx = await harness({ resetOnProgress: true }, [beating(abortedAt)])
    useFakeClock()
    const start = Date.now()
    const seen: unknown[] = []
    const call = track(ctx.tools.execute({ id: 'c1', name: 'beating', arguments: {} }, { onProgress: (info) => seen.push(info?.progress) }))
    await vi.advanceTimersByTimeAsync(3 * 80 + 99); await flush()
    expect(outcome(call.result)).toEqual(['pending'])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, undefined])
    expect(abortedAt).toEqual([start + 3 * 80 + 100])
    expect(seen).toEqual([1, 2, 3])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('starts no timer for a report made after the call returned, so nothing keeps the process alive', async () => {
    let kept: ToolExec['progress'] | undefined
    const seen: unknown[] = []
    const ctx = await harness({ resetOnProgress: true }, [tool('keeper', (_args, exec) => { kept = exec.progress; return 'done' }, { timeoutMs: 60_000 })])
    const timeouts = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length
    const before = timeouts()
    const result = await ctx.tools.execute({ id: 'c1', name: 'keeper', arguments: {} }, { onProgress: (info) => seen.push(info?.message) })
    expect(outcome(result)).toEqual(['OK'])
    kept!({ message: 'late' })
    expect(timeouts()).toBe(before)
    expect(seen).toEqual(['late'])
  })

  it('does not extend the deadline by default', async () => {
    const abortedAt: number[] = []
    const ctx = await harness({}, [beating(abortedAt)])
    useFakeClock()
    const start = Date.now()
    const call = track(ctx.tools.execute({ id: 'c1', name: 'beating', arguments: {} }))
    await vi.advanceTimersByTimeAsync(3 * 80); await flush()
    expect(abortedAt).toEqual([start + 100])
    expect(outcome(call.result)).toEqual([TOOL_TIMEOUT, undefined])
  })
})

describe('the shared exec', () => {
  it('shows the inner layers a new signal and progress, and restores both on every path', async () => {
    const ctx = await harness({ resetOnProgress: true, graceMs: 10 }, [
      tool('ok', () => 'fine', { timeoutMs: 100 }), tool('stuck', stuck, { timeoutMs: 100 }),
    ])
    const seen: Array<[string, boolean, boolean]> = []
    ctx.plugin({
      name: 'outer', inject: ['tools'],
      apply: (ctx) => ctx.on('tools/execute', async (exec: ToolExec, next) => {
        const signal = exec.signal, progress = exec.progress
        const result = await next()
        seen.push([exec.name, exec.signal === signal, exec.progress === progress])
        return result
      }, { prepend: true }),
    })
    let inner: [AbortSignal, ToolExec['progress']] | undefined
    ctx.plugin({ name: 'inner', inject: ['tools'], apply: (ctx) => ctx.on('tools/execute', (exec: ToolExec, next) => { inner = [exec.signal, exec.progress]; return next() }) })
    await ctx.start()
    const controller = new AbortController()
    await ctx.tools.execute({ id: 'c1', name: 'ok', arguments: {} }, { signal: controller.signal })
    expect(inner![0]).not.toBe(controller.signal)
    useFakeClock()
    const stuckCall = track(ctx.tools.execute({ id: 'c2', name: 'stuck', arguments: {} }))
    await vi.advanceTimersByTimeAsync(110); await flush()
    expect(outcome(stuckCall.result)).toEqual([TOOL_TIMEOUT, 'ToolTimeoutAbandoned'])
    expect(seen).toEqual([['ok', true, true], ['stuck', true, true]])
    expect(ctx.tools.chain('tools/execute')).toEqual(['outer', 'timeout-policy', 'inner'])
  })
})

describe('calls that start together', () => {
  it('share one signal and one timer, keep their exact deadlines, and leave nothing behind', async () => {
    const signals: AbortSignal[] = []
    const releases: (() => void)[] = []
    const ctx = await harness({ graceMs: 0 }, [tool('slow', (_args, exec) => new Promise<string>((resolve, reject) => {
      signals.push(exec.signal)
      releases.push(() => resolve('done'))
      exec.signal.addEventListener('abort', () => reject(exec.signal.reason), { once: true })
    }), { timeoutMs: 100 })])
    useFakeClock()
    const controller = new AbortController()
    const first = [1, 2, 3].map((n) => track(ctx.tools.execute({ id: `a${n}`, name: 'slow', arguments: {} }, { signal: controller.signal })))
    await flush()
    expect(new Set(signals).size).toBe(1)
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(10)
    const later = track(ctx.tools.execute({ id: 'b', name: 'slow', arguments: {} }, { signal: controller.signal }))
    await flush()
    expect(new Set(signals).size).toBe(2)
    releases[0]!(); await flush() // one member leaving keeps the group's deadline for the others
    expect(outcome(first[0]!.result)).toEqual(['OK'])
    await vi.advanceTimersByTimeAsync(89); await flush()
    expect([...first.slice(1), later].map((c) => outcome(c.result)[0])).toEqual(['pending', 'pending', 'pending'])
    await vi.advanceTimersByTimeAsync(1); await flush()
    expect([...first.slice(1), later].map((c) => outcome(c.result)[0])).toEqual([TOOL_TIMEOUT, TOOL_TIMEOUT, 'pending'])
    await vi.advanceTimersByTimeAsync(10); await flush()
    expect(outcome(later.result)[0]).toBe(TOOL_TIMEOUT)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('take any number of listeners on their shared signal without a leak warning', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => { warnings.push(`${warning.name}: ${warning.message}`) }
    process.on('warning', onWarning)
    onTestFinished(() => { process.off('warning', onWarning) })
    const signals = new Set<AbortSignal>()
    let release = () => {}
    const released = new Promise<void>((resolve) => { release = resolve })
    const ctx = await harness({}, [tool('listening', (_args, exec) => {
      signals.add(exec.signal)
      exec.signal.addEventListener('abort', () => {}, { once: true })
      return released.then(() => 'done')
    }, { timeoutMs: 60_000 })])
    useFakeClock()
    const caller = new AbortController()
    const calls = Array.from({ length: 1000 }, (_, n) => ctx.tools.execute({ id: `c${n}`, name: 'listening', arguments: {} }, { signal: caller.signal }))
    await flush()
    expect(signals.size).toBe(1)
    release()
    expect((await Promise.all(calls)).every((result) => !result.isError)).toBe(true)
    await flush() // Node emits the warning on a later tick
    expect(warnings).toEqual([])
  })

  it('each get their own watch when progress restarts the deadline', async () => {
    const signals: AbortSignal[] = []
    const ctx = await harness({ resetOnProgress: true }, [tool('quick', (_args, exec) => { signals.push(exec.signal); return 'ok' }, { timeoutMs: 100 })])
    useFakeClock()
    await Promise.all([1, 2].map((n) => ctx.tools.execute({ id: `q${n}`, name: 'quick', arguments: {} })))
    expect(new Set(signals).size).toBe(2)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('the name of a given-up result', () => {
  it('is one the kernel lists, so retry and cache know the body may still be running', () => {
    expect(ABANDONED_NAMES.has(ABANDONED)).toBe(true)
  })
})

describe('memory', () => {
  it('keeps nothing of a finished call alive but the last one (which the next call lets go)', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const ctx = await harness({}, [tool('fresh', () => 'ok')])
    const records: WeakRef<object>[] = []
    for (const id of ['a', 'b', 'c']) {
      const stages = { bodyStart() {} } // held by the call's record, which every view of its exec shares
      records.push(new WeakRef(stages))
      await ctx.tools.execute({ id, name: 'fresh', arguments: {} }, { stages })
    }
    await flush()
    gc()
    expect(records.map((ref) => ref.deref() !== undefined)).toEqual([false, false, true])
    await ctx.stop()
  })
})
