import { describe, expect, it } from 'vitest'
import { ModeGate, type Release } from '../src/gate.js'

describe('ModeGate', () => {
  it('lets the calls behind an exclusive call that gave up waiting move up', async () => {
    const gate = new ModeGate()
    const order: string[] = []
    const p1 = (await gate.enter('parallel'))!
    const controller = new AbortController()
    const x = gate.enter('exclusive', controller.signal).then((release) => { order.push(release ? 'x admitted' : 'x left'); return release })
    const p2 = gate.enter('parallel').then((release) => { order.push('p2 admitted'); return release })
    controller.abort()
    expect(await x).toBeUndefined()
    // p2 runs beside p1, which still holds its place.
    const release2 = (await p2)!
    expect(order).toEqual(['x left', 'p2 admitted'])
    // An exclusive call after them waits for both, then runs; releasing twice changes nothing.
    const y = gate.enter('exclusive')
    let yIn: Release | undefined
    void y.then((release) => { yIn = release })
    p1()
    p1()
    await Promise.resolve()
    expect(yIn).toBeUndefined()
    release2()
    expect(await y).toBeTypeOf('function')
  })

  it('answers at once, holding nothing, for a signal that fired before the call had to wait', async () => {
    const gate = new ModeGate()
    const hold = (await gate.enter('exclusive'))!
    const controller = new AbortController()
    controller.abort()
    expect(await gate.enter('parallel', controller.signal)).toBeUndefined()
    hold()
    expect(await gate.enter('exclusive')).toBeTypeOf('function')
  })
})
