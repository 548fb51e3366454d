import { describe, expect, it } from 'vitest'
import { compose, Invalid, PipelineError } from '../src/compose.js'

type H = (log: string[], next: () => Promise<string>) => Promise<string>
const entry = (plugin: string, handler: H) => ({ handler, owner: undefined, plugin })
const options = (reentry: 'once' | 'sequential') => ({ stage: 'tools/execute' as const, reentry, check: (v: unknown) => v as string })

describe('compose', () => {
  it('runs handlers as an onion: first outermost, in to the core and back out', async () => {
    const wrap = (n: number): H => async (log, next) => {
      log.push(`${n}`)
      const value = await next()
      log.push(`${7 - n}`)
      return value
    }
    const run = compose([entry('a', wrap(1)), entry('b', wrap(2)), entry('c', wrap(3))],
      async (log: string[]) => { log.push('core'); return 'v' }, options('once'))
    const log: string[] = []
    expect(await run(log)).toBe('v')
    expect(log).toEqual(['1', '2', '3', 'core', '4', '5', '6'])
  })

  it('a handler that never calls next() short-circuits everything inside it', async () => {
    const log: string[] = []
    const run = compose([
      entry('outer', async (l, next) => { l.push('outer'); return next() }),
      entry('cache', async (l) => { l.push('cache'); return 'cached' }),
      entry('inner', async (l, next) => { l.push('inner'); return next() }),
    ], async (l: string[]) => { l.push('core'); return 'fresh' }, options('once'))
    expect(await run(log)).toBe('cached')
    expect(log).toEqual(['outer', 'cache'])
  })

  it('next() called twice in a decision hook is a PipelineError naming the plugin', async () => {
    const run = compose([entry('greedy', async (_l, next) => { await next(); return next() })],
      async () => 'v', options('once'))
    const error = await run([]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PipelineError)
    expect((error as PipelineError).message).toBe('plugin "greedy" called next() more than once in tools/execute')
  })

  it('sequential re-entry allows a retry but not two overlapping next() calls', async () => {
    let runs = 0
    const retry = compose([entry('retry', async (_l, next) => { await next(); return next() })],
      async () => `run ${++runs}`, options('sequential'))
    expect(await retry([])).toBe('run 2')
    const overlap = compose([entry('racer', async (_l, next) => { const [a] = await Promise.all([next(), next()]); return a })],
      async () => 'v', options('sequential'))
    await expect(overlap([])).rejects.toThrow('plugin "racer" called next() again before the previous call settled in tools/execute')
  })

  it('sequential re-entry is tracked for a layer inside another layer too, whether it succeeded, failed or was refused', async () => {
    let runs = 0
    const middle = entry('middle', async (_l, next) => next())
    const retry = compose([entry('retry', async (_l, next) => {
      await next().catch(() => undefined)
      return next()
    }), middle], async () => {
      if (++runs === 1) throw new Error('first attempt fails')
      return `run ${runs}`
    }, options('sequential'))
    expect(await retry([])).toBe('run 2')
    const overlap = compose([entry('racer', async (_l, next) => {
      const [a] = await Promise.all([next(), next()])
      return a
    }), middle], async () => 'v', options('sequential'))
    await expect(overlap([])).rejects.toThrow('plugin "racer" called next() again before the previous call settled in tools/execute')
    const invalid = compose([entry('again', async (_l, next) => {
      await next().catch(() => undefined)
      return next()
    }), entry('bad', async () => 42 as unknown as string)], async () => 'v', { ...options('sequential'), check: (value: unknown) => typeof value === 'string' ? value : new Invalid('not a string') })
    await expect(invalid([])).rejects.toThrow('plugin "bad" returned an invalid value from tools/execute: not a string')
  })

  it('sequential re-entry is tracked through layers that hand next()\'s promise on, however deep', async () => {
    let runs = 0
    const through = (name: string) => entry(name, (_l, next) => next())
    const retry = compose([entry('retry', async (_l, next) => {
      await next().catch(() => undefined)
      return next()
    }), through('a'), through('b')], async () => {
      if (++runs === 1) throw new Error('first attempt fails')
      return `run ${runs}`
    }, options('sequential'))
    expect(await retry([])).toBe('run 2')
    let open = () => {}
    const gate = new Promise<void>((resolve) => { open = resolve })
    const overlap = compose([entry('racer', async (_l, next) => {
      const first = next()
      await Promise.resolve()
      const [a] = await Promise.all([first, next()])
      return a
    }), through('a'), through('b')], async () => { await gate; return 'v' }, options('sequential'))
    await expect(overlap([])).rejects.toThrow('plugin "racer" called next() again before the previous call settled in tools/execute')
    open()
    const inner = compose([through('outer'), entry('again', async (_l, next) => {
      await next()
      return next()
    }), through('b')], async () => `run ${++runs}`, options('sequential'))
    expect(await inner([])).toBe('run 4')
  })

  it('a throw in the middle is wrapped once, naming the plugin that threw', async () => {
    const run = compose([
      entry('outer', async (_l, next) => next()),
      entry('middle', async () => { throw new TypeError('bad state') }),
    ], async () => 'v', options('once'))
    const error = await run([]).catch((e: unknown) => e) as PipelineError
    expect(error.plugin).toBe('middle')
    expect(error.message).toBe('plugin "middle" failed in tools/execute: bad state')
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('a return value the check rejects is a PipelineError', async () => {
    const run = compose([entry('sloppy', async () => 'nope')], async () => 'v',
      { stage: 'tools/pre-execute', reentry: 'once', check: (v: unknown) => v === 'nope' ? new Invalid('expected a decision') : v as string })
    await expect(run([])).rejects.toThrow('plugin "sloppy" returned an invalid value from tools/pre-execute: expected a decision')
  })

  it('with no handlers, the core runs directly', async () => {
    const core = async () => 'v'
    expect(compose([], core, options('once'))).toBe(core)
  })
})
