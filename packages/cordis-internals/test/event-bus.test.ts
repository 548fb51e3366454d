// The one assumption the agent makes about cordis beyond its documented API (src/event-bus.ts).
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { eventBus } from '../src/event-bus.js'

describe('the lifecycle event table', () => {
  it('lists listeners by name in _hooks, updated in place, so the bus can tell when an emit would reach nobody', async () => {
    const ctx = new Context()
    await ctx.start()
    const bus = eventBus(ctx)
    expect(bus.listens('some/event')).toBe(false)
    const seen: unknown[] = []
    const off = ctx.on('some/event' as never, ((value: unknown) => { seen.push(value) }) as never)
    expect(bus.listens('some/event')).toBe(true)
    bus.emit('some/event', 42)
    expect(seen).toEqual([42])
    off()
    expect(bus.listens('some/event')).toBe(false)
    await ctx.stop()
  })

  it('reaches, from a plugin\'s context, the listeners of every plugin, and internal/event watchers, with the arguments as given', async () => {
    const root = new Context()
    const seen: unknown[] = []
    let emitter: Context | undefined
    root.plugin({ name: 'listener', apply: (ctx: Context) => { ctx.on('some/event' as never, ((...args: unknown[]) => { seen.push(['listener', ...args]) }) as never) } })
    root.plugin({ name: 'emitter', apply: (ctx: Context) => { emitter = ctx } })
    root.on('internal/event', ((type: string, name: string, args: unknown[]) => {
      if (name === 'some/event') seen.push(['watcher', type, ...args])
    }) as never)
    await root.start()
    const bus = eventBus(emitter!)
    expect(bus.listens('some/event')).toBe(true)
    const payload = { id: 1 }
    bus.emit('some/event', payload, 'two')
    expect(seen).toEqual([['watcher', 'emit', payload, 'two'], ['listener', payload, 'two']])
    expect((seen[1] as unknown[])[1]).toBe(payload)
    await root.stop()
  })

  it('rethrows what a listener throws', async () => {
    const ctx = new Context()
    await ctx.start()
    ctx.on('some/event' as never, (() => { throw new Error('listener broke') }) as never)
    expect(() => eventBus(ctx).emit('some/event')).toThrow('listener broke')
    await ctx.stop()
  })
})
