/** Every configured header value is secret unless its name is one the provider declared public. */
import { describe, expect, it } from 'vitest'
import { secretHeaderValues } from '../src/secrets.js'

describe('secretHeaderValues', () => {
  it('takes every header value as secret, except those a provider names public (any case)', () => {
    const headers = { Authorization: 'Bearer b2', 'x-api-key': 'c3', 'User-Agent': 'rein', 'anthropic-beta': 'beta-1' }
    expect(secretHeaderValues(headers)).toEqual(['Bearer b2', 'c3', 'rein', 'beta-1'])
    expect(secretHeaderValues(headers, new Set(['user-agent', 'anthropic-beta']))).toEqual(['Bearer b2', 'c3'])
  })
})
