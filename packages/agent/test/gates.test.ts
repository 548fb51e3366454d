import { describe, expect, it } from 'vitest'
import { PostGate, PreGate } from '../src/gates.js'
import { settle } from './helpers.js'

/** Marks `i` in `order` when the gate lets it in: at once (undefined) or when the promise resolves. */
function when(entered: Promise<void> | undefined, order: number[], i: number): Promise<unknown> {
  if (entered === undefined) {
    order.push(i)
    return Promise.resolve()
  }
  return entered.then(() => order.push(i))
}

describe('PreGate', () => {
  it('lets calls through one at a time in the order they joined', async () => {
    const gate = new PreGate(3)
    const order: number[] = []
    for (const i of [2, 0, 1]) gate.enqueue(i)
    const turns = [0, 1, 2].map((i) => when(gate.turn(i), order, i))
    // The call at the head is let through at once, without a promise.
    expect(order).toEqual([2])
    await settle()
    expect(order).toEqual([2])
    gate.release(2)
    await settle()
    expect(order).toEqual([2, 0])
    gate.release(0)
    await settle()
    // Checked as a state, not awaited: a gate that never opens fails here instead of hanging.
    expect(order).toEqual([2, 0, 1])
    await Promise.all(turns)
  })

  it('skips a call that leaves before its turn', async () => {
    const gate = new PreGate(3)
    for (const i of [0, 1, 2]) gate.enqueue(i)
    let thirdsTurn = false
    void gate.turn(2)!.then(() => { thirdsTurn = true })
    gate.release(1)
    await settle()
    expect(thirdsTurn).toBe(false)
    gate.release(0)
    await settle()
    expect(thirdsTurn).toBe(true)
  })
})

describe('PostGate', () => {
  it('runs a call that is not depended on only after every earlier call is final', async () => {
    const gate = new PostGate(3)
    const order: number[] = []
    void when(gate.enter(2, false), order, 2)
    await settle()
    expect(order).toEqual([])
    gate.finish(0)
    gate.finish(1)
    await settle()
    expect(order).toEqual([2])
    expect(gate.frontier).toBe(2)
  })

  it('lets a depended-on call in at once, but never two calls at the same time', async () => {
    const gate = new PostGate(3)
    const order: number[] = []
    // Let in at once: no promise to wait for.
    expect(gate.enter(1, true)).toBeUndefined()
    order.push(1)
    void when(gate.enter(2, true), order, 2)
    await settle()
    expect(order).toEqual([1])
    gate.finish(1)
    await settle()
    expect(order).toEqual([1, 2])
  })

  it('lets the frontier call in at once when the gate is free', () => {
    const gate = new PostGate(2)
    expect(gate.enter(0, false)).toBeUndefined()
    gate.finish(0)
    expect(gate.enter(1, false)).toBeUndefined()
  })
})
