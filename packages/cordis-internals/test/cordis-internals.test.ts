// One test per assumption the kernel makes about cordis beyond its documented API
// (src/cordis-internals.ts). When cordis is upgraded, a broken assumption fails here, by name.
import { Context, Schema, Service } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import {
  interceptListeners, onLifecycleChange, pluginName, pluginRuntimes, scopeFacts, serviceOf, serviceTarget, trackListeners, untraced,
} from '../src/cordis-internals.js'

describe('cordis internals rein relies on', () => {
  let ctx: Context
  afterEach(() => ctx?.stop())
  const started = async () => { ctx = new Context(); await ctx.start(); return ctx }

  it('ctx.on wraps each listener through reflect.bind, so the original can be recorded and restored', async () => {
    await started()
    const listeners = trackListeners(ctx)
    const original = () => 'original'
    let wrapped: unknown
    ctx.on('internal/listener', function (_name: string, listener: unknown) { wrapped = listener } as never)
    ctx.on('some/event' as never, original as never)
    expect(wrapped).not.toBe(original)
    expect(listeners.original(wrapped)).toBe(original)
    listeners.restore()
  })

  it('internal/listener lets a service take a listener: returning a disposer skips cordis\' own table', async () => {
    await started()
    const taken: string[] = []
    interceptListeners(ctx, (name) => name === 'mine/hook', (_owner, name) => { taken.push(name); return () => {} })
    let fired = false
    ctx.on('mine/hook' as never, (() => { fired = true }) as never)
    ;(ctx.emit as (name: string) => void)('mine/hook')
    expect(taken).toEqual(['mine/hook'])
    expect(fired).toBe(false)
  })

  it('a service reached through a context hands out proxied functions; the object behind it, the functions themselves', async () => {
    await started()
    class Echo extends Service {
      readonly echo = (value: string) => `echo ${value}`
      constructor(ctx: Context) { super(ctx, 'echo', true) }
    }
    ctx.plugin(Echo)
    await ctx.start()
    const service = (ctx as unknown as { echo: Echo }).echo
    const target = serviceTarget(service)
    expect(target).toBeInstanceOf(Echo)
    expect(service.echo).not.toBe(target.echo)
    expect(target.echo('x')).toBe('echo x')
    const plain = { n: 1 }
    expect(serviceTarget(plain)).toBe(plain)
    for (const odd of [undefined, null, 3, 'text']) expect(serviceTarget(odd as unknown as object)).toBe(odd)
  })

  it('a function handed to a service method through a context arrives as a proxy of it; serviceTarget gives the function itself', async () => {
    await started()
    let given: unknown
    class Keeper extends Service {
      keep(fn: (value: string) => string) { given = fn }
      constructor(ctx: Context) { super(ctx, 'keeper', true) }
    }
    ctx.plugin(Keeper)
    await ctx.start()
    const fn = (value: string) => `kept ${value}`
    ;(ctx as unknown as { keeper: Keeper }).keeper.keep(fn)
    expect(given).not.toBe(fn)
    expect(serviceTarget(given as object)).toBe(fn)
  })

  it('serviceOf reads the service table as ctx.get does (isolation included), without its proxies', async () => {
    await started()
    class Echo extends Service {
      constructor(ctx: Context, readonly label: string) { super(ctx, 'echo', true) }
    }
    ctx.plugin({ name: 'shared', apply: (c: Context) => { c.plugin(class extends Echo { constructor(c: Context) { super(c, 'shared') } }) } })
    let isolated: Context | undefined
    ctx.plugin({ name: 'outer', apply: (c: Context) => {
      isolated = c.isolate('echo')
      isolated.plugin(class extends Echo { constructor(c: Context) { super(c, 'own') } })
    } })
    await ctx.start()
    for (const where of [ctx, isolated!]) {
      expect(serviceOf<Echo>(where, 'echo')).toBe(serviceTarget(where.get('echo') as Echo))
    }
    expect(serviceOf<Echo>(ctx, 'echo')!.label).toBe('shared')
    expect(serviceOf<Echo>(isolated!, 'echo')!.label).toBe('own')
    expect(serviceOf(ctx, 'missing')).toBeUndefined()
    expect(serviceOf(ctx, 'constructor')).toBeUndefined()
  })

  it('a shadow object gives a handler its plugin context as this', async () => {
    await started()
    const fork = ctx.plugin({ name: 'owner', apply() {} })
    const shadow = untraced(fork.ctx) as Context
    expect(shadow.name).toBe('owner')
    expect(pluginName(fork.ctx)).toBe('owner')
    expect(pluginName(ctx)).toBe('root')
  })

  it('ScopeStatus.FAILED is 3: a plugin whose apply throws has a failed runtime with the error', async () => {
    await started()
    const fork = ctx.plugin({ name: 'broken', apply() { throw new Error('boom') } })
    await ctx.start()
    const facts = scopeFacts(fork.runtime)
    expect(facts.failed).toBe(true)
    expect((facts.error as Error).message).toBe('boom')
  })

  it('a config its schema rejects leaves the runtime failed, with the validation error', async () => {
    await started()
    const fork = ctx.plugin({ name: 'strict', Config: Schema.object({ n: Schema.number().required() }), apply() {} }, {} as never)
    expect(scopeFacts(fork.runtime).failed).toBe(true)
    expect(String(scopeFacts(fork.runtime).error)).toMatch(/n/)
  })

  it('a fork waiting for a required service stays inactive and names it; a disposed one says so', async () => {
    await started()
    const fork = ctx.plugin({ name: 'waits', inject: ['vault'], apply() {} })
    await ctx.start()
    expect(scopeFacts(fork)).toMatchObject({ active: false, failed: false, missing: ['vault'], disposed: false })
    fork.dispose()
    expect(scopeFacts(fork).disposed).toBe(true)
  })

  it('the registry lists every plugin runtime of the app, nested ones too, each with its forks', async () => {
    await started()
    ctx.plugin({ name: 'outer', apply(c: Context) { c.plugin({ name: 'inner', apply() {} }) } })
    await ctx.start()
    const names = [...pluginRuntimes(ctx)].map(({ name, forks }) => `${name}:${forks.length}`)
    expect(names).toEqual(expect.arrayContaining(['outer:1', 'inner:1']))
  })

  it('status, fork, runtime and service changes are announced by internal events', async () => {
    await started()
    let changes = 0
    onLifecycleChange(ctx, () => { changes++ })
    const fork = ctx.plugin({ name: 'p', apply(c: Context) { c.set('thing', {}) } })
    await ctx.start()
    const afterStart = changes
    expect(afterStart).toBeGreaterThan(0)
    fork.dispose()
    expect(changes).toBeGreaterThan(afterStart)
  })
})
