/**
 * The redactor hides a long secret anywhere and a short one only as a word of its own, in every
 * spelling a server may echo it in; every configured header value is secret unless its name is
 * one the provider declared public.
 */
import { describe, expect, it } from 'vitest'
import { createRedactor, REDACTED, secretHeaderValues } from '../src/secrets.js'

describe('createRedactor', () => {
  it('replaces a secret of 8 or more characters wherever it occurs, even inside a word', () => {
    const redact = createRedactor(['k3y-5678'])
    expect(redact('key k3y-5678, again:k3y-5678xyz')).toBe(`key ${REDACTED}, again:${REDACTED}xyz`)
  })

  it('replaces a shorter secret only where it stands as a word of its own', () => {
    const redact = createRedactor(['abc'])
    expect(redact('Incorrect API key provided: abc. Check "abc", /abc/ and key=abc&x')).toBe(
      `Incorrect API key provided: ${REDACTED}. Check "${REDACTED}", /${REDACTED}/ and key=${REDACTED}&x`)
    expect(redact('Labcoat abcd xabc abc_1 abc1 1abc')).toBe('Labcoat abcd xabc abc_1 abc1 1abc')
  })

  it('bounds a short secret only at its word-character edges', () => {
    expect(createRedactor(['-k-'])('a-k-b')).toBe(`a${REDACTED}b`)
    expect(createRedactor(['k.'])('ok. k. k.x')).toBe(`ok. ${REDACTED} ${REDACTED}x`)
  })

  it('matches the URL-encoded and JSON-escaped spellings, in either hex case', () => {
    const secret = 'p@ss "wörd"/+=\\1'
    const redact = createRedactor([secret])
    const spellings = [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      new URLSearchParams({ v: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(secret).slice(1, -1).replace('ö', '\\u00f6'),
    ]
    for (const spelling of spellings) expect(redact(`<${spelling}>`), spelling).toBe(`<${REDACTED}>`)
  })

  it('also hides the credential after an auth scheme, which a server may echo alone', () => {
    const redact = createRedactor(['Bearer tok-0a1b2c3d4e5f', 'Token xyz'])
    expect(redact('got Bearer tok-0a1b2c3d4e5f / tok-0a1b2c3d4e5f / Token xyz / xyz')).toBe(
      `got ${REDACTED} / ${REDACTED} / ${REDACTED} / ${REDACTED}`)
    expect(redact('Bearer tokens and Token auth')).toBe('Bearer tokens and Token auth')
  })

  it('replaces the longest secret first and leaves text alone without secrets', () => {
    expect(createRedactor(['abcdefgh', 'abcdefgh-ijkl'])('abcdefgh-ijkl')).toBe(REDACTED)
    expect(createRedactor(['', ''])('anything [x]')).toBe('anything [x]')
    expect(createRedactor(['a.b*c(d)[e]{f}|g^h$i?j\\k/l'])('x a.b*c(d)[e]{f}|g^h$i?j\\k/l y')).toBe(`x ${REDACTED} y`)
  })
})

describe('secretHeaderValues', () => {
  it('takes every header value as secret, except those a provider names public (any case)', () => {
    const headers = { Authorization: 'Bearer b2', 'x-api-key': 'c3', 'User-Agent': 'rein', 'anthropic-beta': 'beta-1' }
    expect(secretHeaderValues(headers)).toEqual(['Bearer b2', 'c3', 'rein', 'beta-1'])
    expect(secretHeaderValues(headers, new Set(['user-agent', 'anthropic-beta']))).toEqual(['Bearer b2', 'c3'])
  })
})
