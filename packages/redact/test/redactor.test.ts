import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRedactor, MIN_ANYWHERE_LENGTH, REDACTED, redactValue } from '../src/index.js'
import { noise, secret, spelling } from './arbitraries.js'

/** Hostile text: anything, and pieces of every spelling and pattern the redactor knows. */
const hostile = fc.array(fc.oneof(
  noise,
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('-----BEGIN RSA PRIVATE KEY-----\n', '-----END RSA PRIVATE KEY-----', 'Basic ', 'dXNlcjpwdw==', 'a:b@', 'AKIA',
    'ghp_', '%2D', '%2d', '\\"', '\\u002D', '+', '\uD800', '\uDFFF', REDACTED, 'abcdefghijklmnopqrstuvwxyz012345'),
), { maxLength: 12 }).map((parts) => parts.join(''))

describe('createRedactor', () => {
  it('runs known values, then the built-in patterns, then configured ones', () => {
    const redact = createRedactor(['hunter2-pw'], { extra: ['corp-[0-9a-f]{8}'] })
    expect(redact('GET https://admin:hunter2%2Dpw@host/api?token=corp-deadbeef failed'))
      .toBe(`GET https://${REDACTED}@host/api?token=${REDACTED} failed`)
    expect(createRedactor([], { builtIn: false, extra: ['corp-[0-9a-f]{8}'] })('sk-AbCdEfGhIjKlMnOpQrStUv corp-deadbeef'))
      .toBe(`sk-AbCdEfGhIjKlMnOpQrStUv ${REDACTED}`)
    expect(createRedactor([], { builtIn: false })('sk-AbCdEfGhIjKlMnOpQrStUv')).toBe('sk-AbCdEfGhIjKlMnOpQrStUv')
  })

  it('is idempotent and never throws, on hostile text with hostile known values', () => {
    fc.assert(fc.property(fc.array(secret(1), { maxLength: 3 }), hostile, (values, text) => {
      const redact = createRedactor(values)
      const once = redact(text)
      expect(redact(once)).toBe(once)
    }), { numRuns: 200 })
  })

  it('is idempotent when the text spells a known value next to marker text', () => {
    fc.assert(fc.property(
      secret(1).chain((value) => fc.tuple(fc.constant(value), fc.array(fc.oneof(spelling(value), noise), { maxLength: 6 }))),
      ([value, parts]) => {
        const redact = createRedactor([value, 'D]]]]]]]', 'TED]tail'])
        const once = redact(parts.join(''))
        expect(redact(once)).toBe(once)
      },
    ), { numRuns: 200 })
    const redact = createRedactor(['D]]]]]]]', 'zzzzzzzz', 'ab'])
    for (const text of [`D${']'.repeat(15)}`, `${REDACTED}]]]]]]]]`, 'zzzzzzzzab', 'zzzzzzzz_ab']) {
      expect(redact(redact(text)), text).toBe(redact(text))
    }
  })

  // Several MB of the worst text for each part: a quadratic matcher would run for hours.
  it.each([
    ['a run of scheme characters with `://` at the end', `${'a'.repeat(4_000_000)}://`],
    ['a URL host with no end to its user part', `x://${'a:'.repeat(1_000_000)}`],
    ['a URL user part full of `@` and no colon', `x://${'a@'.repeat(1_000_000)}`],
    ['a URL password full of `@` cut by a path', `x://a:${'b@'.repeat(1_000_000)}/`],
    ['percent signs and escapes that almost spell the key', '%2D%2'.repeat(600_000) + '\\u00'.repeat(500_000)],
    ['a key prefix over and over', 'sk-live-012345'.repeat(300_000)],
    ['Bearer with no token', 'Bearer  \t '.repeat(400_000)],
    ['private key headers with no end', '-----BEGIN AAAA PRIVATE '.repeat(160_000)],
    ['word characters around a short value', 'abcabcab'.repeat(500_000)],
  ])('finishes on %s', (_, text) => {
    const redact = createRedactor(['sk-live-0123456789', 'abc', 'Bearer tok-00000000'])
    const out = redact(text)
    expect(out.length).toBeLessThanOrEqual(text.length + REDACTED.length)
    expect(out.includes('sk-live-0123456789')).toBe(false)
  })

  it('redacts a known value hidden in a multi-MB text once per occurrence', () => {
    const key = 'k'.repeat(MIN_ANYWHERE_LENGTH) + '-%/'
    const text = `${'x'.repeat(1_000_000)} ${encodeURIComponent(key)} `.repeat(4)
    expect(createRedactor([key])(text)).toBe(`${'x'.repeat(1_000_000)} ${REDACTED} `.repeat(4))
  })
})

describe('redactValue', () => {
  it('keeps every value when keys redact to the same text, later ones numbered', () => {
    const args = { [`sk-${'A'.repeat(20)}`]: 'rm -rf /', [`sk-${'B'.repeat(20)}`]: 'ls' }
    const once = redactValue(args, createRedactor())
    expect(Object.entries(once)).toEqual([[REDACTED, 'rm -rf /'], [`${REDACTED} (2)`, 'ls']])
    expect(redactValue(once, createRedactor())).toBe(once)
  })
})
