import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRedactor, isSecretKey, mayNameSecret, MIN_ANYWHERE_LENGTH, REDACTED, redactValue } from '../src/index.js'
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
    ['JWT headers with no dots', 'eyJ-'.repeat(1_000_000)],
    ['JWT segments that never make three', 'eyJabcdefgh.'.repeat(300_000)],
    ['Authorization labels with no token', 'Authorization: token '.repeat(200_000)],
    ['secret query parameters', '&token='.repeat(500_000) + '?password=x'.repeat(300_000)],
    ['AWS labels with a value one short', `aws_secret_access_key=${'a'.repeat(39)} `.repeat(60_000)],
    ['Slack and Stripe prefixes', 'xoxb-xoxb-sk_live_'.repeat(300_000)],
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

describe('redactValue under keys that name a secret', () => {
  const redact = <T>(value: T): T => redactValue(value, createRedactor())

  it('replaces a string under a secret key whole, whatever it looks like, in any case and with any separators', () => {
    const input = Object.freeze({
      password: 'Tr0ub4dor&3-correct-horse',
      headers: { 'X-Api-Key': 'f3a9c2e1d4b5a6978877665544332211', Authorization: 'token 0123', Cookie: 'sid=abc',
        'Proxy-Authorization': 'Digest username="u"', 'set-cookie': ['a=1', 'b=2'] },
      aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      db: { PassWd: 'pw', pwd: 'hunter2', clientSecret: 'cs', db_password: 'x', 'private-key': 'k', privateKey: 'k' },
      oauth: { token: 't0k', access_token: 'at', refreshToken: 'rt', ID_TOKEN: 'it', apiKey: 'k1', 'api.key': 'k2', secret: 's' },
      auth: [{ authorization: 'rawtoken' }, { AUTHORIZATION: ' Bearer abc' }],
    })
    expect(redact(input)).toEqual({
      password: REDACTED,
      headers: { 'X-Api-Key': REDACTED, Authorization: `token ${REDACTED}`, Cookie: REDACTED, 'Proxy-Authorization': `Digest ${REDACTED}`, 'set-cookie': [REDACTED, REDACTED] },
      aws_secret_access_key: REDACTED,
      db: { PassWd: REDACTED, pwd: REDACTED, clientSecret: REDACTED, db_password: REDACTED, 'private-key': REDACTED, privateKey: REDACTED },
      oauth: { token: REDACTED, access_token: REDACTED, refreshToken: REDACTED, ID_TOKEN: REDACTED, apiKey: REDACTED, 'api.key': REDACTED, secret: REDACTED },
      auth: [{ authorization: REDACTED }, { AUTHORIZATION: `Bearer ${REDACTED}` }],
    })
    expect(input.password).toBe('Tr0ub4dor&3-correct-horse')
  })

  it('leaves token counts, non-string values, empty strings and ordinary keys alone', () => {
    const input = {
      max_tokens: 100, usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 }, maxTokens: '100', tokens: ['a', 'b'],
      token_count: 3, tokenizer: 'cl100k', token: 42, password: '', secret: '  ', cookie: null, authorization: true,
      session_id: 'sess-0123456789', PWD: '/home/me', keyboard: 'us', passwordHint: 'your pet', author: 'me', tokenType: 'Bearer',
      secrets: { count: 2 },
    }
    expect(redact(input)).toBe(input)
  })

  it('walks objects under a secret key as usual, and is idempotent', () => {
    const input = { token: { value: 'plain', password: 'p', count: 1 }, password: REDACTED }
    const once = redact(input)
    expect(once).toEqual({ token: { value: 'plain', password: REDACTED, count: 1 }, password: REDACTED })
    expect(redact(once)).toBe(once)
  })
})

describe('mayNameSecret: the screen for keys that name a secret', () => {
  it('passes every JSON text holding a key isSecretKey takes, whatever separators, case and escapes the key has', () => {
    const separator = fc.constantFrom('', '-', '_', '.', ' ', '\n', '\t', '\r', '\f', '\v', '\u00a0')
    const secretName = fc.constantFrom('password', 'passwd', 'pwd', 'token', 'authorization', 'cookie', 'client_secret', 'x-api-key', 'aws_secret_access_key', 'refresh_token')
    const spelled = fc.tuple(secretName, fc.array(fc.tuple(fc.nat(20), separator), { maxLength: 4 }), fc.boolean(), fc.string({ maxLength: 3 }))
      .map(([name, cuts, upper, prefix]) => {
        let key = upper ? name.toUpperCase() : name
        for (const [at, sep] of cuts) key = key.slice(0, at % (key.length + 1)) + sep + key.slice(at % (key.length + 1))
        return prefix.replace(/[a-z]/gi, '') + key
      })
    fc.assert(fc.property(spelled, fc.string(), (key, value) => {
      if (!isSecretKey(key)) return
      expect([key, mayNameSecret(JSON.stringify({ [key]: value }))]).toEqual([key, true])
    }), { numRuns: 2000 })
  })

  it('lets plain arguments through', () => {
    expect(mayNameSecret(JSON.stringify({ path: 'src/a.ts', line: 3, text: 'hello' }))).toBe(false)
  })
})
