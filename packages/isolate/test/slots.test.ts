import { describe, expect, it } from 'vitest'
import { Slots } from '../src/slots.js'

const live = () => new AbortController().signal

describe('Slots', () => {
  it('grants up to its size at once and hands a released slot to the first waiter', async () => {
    const slots = new Slots(1)
    const order: string[] = []
    const releaseA = await slots.acquire(live())
    const b = slots.acquire(live()).then((release) => { order.push('b'); return release })
    const c = slots.acquire(live()).then((release) => { order.push('c'); return release })
    releaseA()
    ;(await b)()
    ;(await c)()
    expect(order).toEqual(['b', 'c'])
  })

  it('a waiter whose signal aborts leaves the queue and rejects with the reason', async () => {
    const slots = new Slots(1)
    const release = await slots.acquire(live())
    const controller = new AbortController()
    const waiting = slots.acquire(controller.signal)
    const reason = new Error('stop')
    controller.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    const next = slots.acquire(live())
    release()
    await expect(next).resolves.toBeTypeOf('function')
  })

  it('releasing twice frees one slot only', async () => {
    const slots = new Slots(1)
    const release = await slots.acquire(live())
    release()
    release()
    await slots.acquire(live())
    let granted = false
    void slots.acquire(live()).then(() => { granted = true })
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(granted).toBe(false)
  })

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('early'))
    await expect(new Slots(1).acquire(controller.signal)).rejects.toThrow('early')
  })
})
