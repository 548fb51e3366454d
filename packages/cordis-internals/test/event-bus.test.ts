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
})
