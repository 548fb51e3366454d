import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRedactor, MIN_ANYWHERE_LENGTH, REDACTED } from '../src/index.js'
import { base64Around, noise, percentSpelling, secret, spelling } from './arbitraries.js'

/** Whether `spelled` occurs in `text` outside every marker (the marker's own text is public). */
const leaks = (text: string, spelled: string) => text.split(REDACTED).some((piece) => piece.includes(spelled))

describe('known values', () => {
  it('replaces a long value anywhere, a short one only as a word', () => {
    const redact = createRedactor(['k3y-5678', 'abc'], { builtIn: false })
    expect(redact('key k3y-5678, again:k3y-5678xyz')).toBe(`key ${REDACTED}, again:${REDACTED}xyz`)
    expect(redact('Check "abc", /abc/ and key=abc&x, not labcoat')).toBe(`Check "${REDACTED}", /${REDACTED}/ and key=${REDACTED}&x, not labcoat`)
  })

  it('matches a key echoed with `-` written %2D or %2d, and any other mix of encoded characters', () => {
    const key = 'sk-live-0123456789'
    const redact = createRedactor([key], { builtIn: false })
    for (const echoed of ['sk%2Dlive%2D0123456789', 'sk%2dlive-0123456789', '%73%6B%2D%6c%69%76%65-0123456789', encodeURIComponent(key)]) {
      expect(redact(`invalid key ${echoed}!`), echoed).toBe(`invalid key ${REDACTED}!`)
    }
  })

  it('matches JSON escapes, \\u escapes in either case, `+` for a space, UTF-8 bytes of non-ASCII', () => {
    const redact = createRedactor(['p@ss "wörd"/€'], { builtIn: false })
    for (const echoed of [
      'p@ss \\"wörd\\"\\/€', 'p\\u0040ss \\u0022w\\u00F6rd\\u0022/\\u20ac', 'p%40ss+%22w%C3%B6rd%22%2F%E2%82%AC', 'p@ss%20"w%c3%b6rd"/€',
    ]) {
      expect(redact(`<${echoed}>`), echoed).toBe(`<${REDACTED}>`)
    }
  })

  it('matches a long value inside base64 at any alignment, base64url too (Basic credentials of a key)', () => {
    const key = 'hunter2-super-secret-key'
    const redact = createRedactor([key], { builtIn: false })
    for (const prefix of ['', 'u', 'us', 'user:']) {
      for (const url of [false, true]) {
        const encoded = base64Around(prefix, key, ' tail', url)
        expect(leaks(redact(encoded), Buffer.from(key).toString('base64').slice(4, 12)), `${prefix} ${url}`).toBe(false)
      }
    }
  })

  it('takes the token of a `Bearer <token>` value on its own, and replaces a containing value whole', () => {
    const redact = createRedactor(['Bearer tok-0a1b2c3d4e5f', 'abcdefgh', 'abcdefgh-ijkl'], { builtIn: false })
    expect(redact('got Bearer tok-0a1b2c3d4e5f / tok-0a1b2c3d4e5f')).toBe(`got ${REDACTED} / ${REDACTED}`)
    expect(redact('abcdefgh-ijkl')).toBe(REDACTED)
  })

  it('ignores empty and blank values, and takes every regex character literally', () => {
    expect(createRedactor(['', '   '], { builtIn: false })('anything [x]   y')).toBe('anything [x]   y')
    expect(createRedactor(['a.b*c(d)[e]{f}|g^h$i?j\\k/l-m'], { builtIn: false })('x a.b*c(d)[e]{f}|g^h$i?j\\k/l-m y')).toBe(`x ${REDACTED} y`)
  })

  it('never leaves a long value in any spelling, wherever it is', () => {
    fc.assert(fc.property(
      secret(MIN_ANYWHERE_LENGTH).chain((value) => fc.tuple(fc.constant(value), spelling(value), noise, noise)),
      ([value, spelled, before, after]) => {
        const out = createRedactor([value])(before + spelled + after)
        expect(leaks(out, spelled)).toBe(false)
      },
    ), { numRuns: 300 })
  })

  it('never leaves a short value that stands as a word, in any spelling', () => {
    fc.assert(fc.property(
      secret(1, MIN_ANYWHERE_LENGTH - 1).chain((value) => fc.tuple(fc.constant(value), spelling(value), fc.constantFrom(' ', '"', '\n', '=', '/'))),
      ([value, spelled, gap]) => {
        const out = createRedactor([value], { builtIn: false })(`x${gap}${spelled}${gap}y`)
        expect(leaks(out, spelled)).toBe(false)
      },
    ), { numRuns: 200 })
  })

  it('never leaves any percent-encoding of a value (any subset of characters, either hex case)', () => {
    fc.assert(fc.property(
      secret(MIN_ANYWHERE_LENGTH), fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
      (value, mask, upper) => {
        const spelled = percentSpelling(value, mask, upper)
        expect(leaks(createRedactor([value])(`GET /x?key=${spelled}&y=1`), spelled)).toBe(false)
      },
    ), { numRuns: 300 })
  })
})
