/** `secretLeaks` finds a secret wherever an error could show it, and names the place without quoting it. */
import { describe, expect, it } from 'vitest'
import { secretLeaks } from '../src/index.js'

const KEY = 'sk-leak-0123456789'

describe('secretLeaks', () => {
  it('finds nothing in an error that does not hold the secret', () => {
    expect(secretLeaks(new Error('unauthorized', { cause: new Error('401') }), KEY)).toEqual([])
  })

  it.each([
    ['its message', () => new Error(`bad key ${KEY}`)],
    ['a nested cause', () => new Error('x', { cause: new Error('y', { cause: { body: `{"key":"${KEY}"}` } }) })],
    ['a property', () => Object.assign(new Error('x'), { config: { headers: [['x-api-key', KEY]] } })],
    ['a symbol-keyed property', () => Object.assign(new Error('x'), { [Symbol('headers')]: KEY })],
    ['an aggregate error', () => new AggregateError([new Error(KEY)], 'several')],
    ['a property name', () => Object.assign(new Error('x'), { [KEY]: true })],
  ])('finds it in %s, without quoting it', (_, make) => {
    const leaks = secretLeaks(make(), KEY)
    expect(leaks.length).toBeGreaterThan(0)
    expect(leaks.join('\n')).not.toContain(KEY)
  })
})
