import { expect, it } from 'vitest'
import { components } from '../src/cycles.js'

it('gives the nodes of a cycle one component and every other node its own', () => {
  const edges: number[][] = [[1], [2], [0], [0], [4]]
  const c = components(5, (v) => edges[v])
  expect(c[0]).toBe(c[1])
  expect(c[1]).toBe(c[2])
  expect(new Set([c[0], c[3], c[4]]).size).toBe(3)
})

it('handles a path of 100,000 nodes without overflowing the stack', () => {
  const n = 100_000
  const c = components(n, (v) => (v + 1 < n ? [v + 1] : []))
  expect(new Set(c).size).toBe(n)
})
