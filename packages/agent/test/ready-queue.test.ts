import fc from 'fast-check'
import { expect, it } from 'vitest'
import { ReadyQueue } from '../src/ready-queue.js'

it('always hands out the lowest queued index', () => {
  fc.assert(fc.property(fc.array(fc.nat(1000)), (values) => {
    const queue = new ReadyQueue()
    for (const v of values) queue.push(v)
    const out: number[] = []
    while (queue.size > 0) out.push(queue.pop())
    expect(out).toEqual([...values].sort((a, b) => a - b))
  }))
})
