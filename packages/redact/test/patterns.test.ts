import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BUILT_IN_PATTERNS, createRedactor, MAY_MATCH_BUILT_IN, patternProblem, redactValue } from '../src/index.js'

const text = createRedactor()
const redact = <T>(value: T): T => redactValue(value, text)

describe('built-in patterns', () => {
  it.each([
    ['an sk- key', 'key=sk-proj-AbCdEfGhIjKlMnOpQrStUv123', 'key=[REDACTED]'],
    ['a Bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def', 'Authorization: Bearer [REDACTED]'],
    ['a lower-case bearer token', 'bearer abcdefgh12345678', 'bearer [REDACTED]'],
    ['an AKIA key', 'aws AKIAIOSFODNN7EXAMPLE here', 'aws [REDACTED] here'],
    ['a ghp_ token', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', '[REDACTED]'],
    ['a gho_ token', 'token gho_0123456789abcdefghijABCDEFGHIJ012345.', 'token [REDACTED].'],
    ['a PEM private key block',
      'before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nsk-notakeybutinside\n-----END RSA PRIVATE KEY-----\nafter',
      'before\n[REDACTED]\nafter'],
    ['Basic credentials', 'Authorization: Basic dXNlcjpodW50ZXIyLXN1cGVyLXNlY3JldA==', 'Authorization: Basic [REDACTED]'],
    ['a URL\'s user and password', 'psql https://admin:hunter2-super-secret@db.internal:5432/prod', 'psql https://[REDACTED]@db.internal:5432/prod'],
    ['a URL password holding `@` (userinfo ends at the last one)', 'git clone https://alice:S3cr3t@Tail99@example.com/repo.git',
      'git clone https://[REDACTED]@example.com/repo.git'],
    ['a URL user holding `@`, up to the path', 'https://me@corp.com:pw@host/a?b@c#d@e', 'https://[REDACTED]@host/a?b@c#d@e'],
    ['Basic credentials with a non-ASCII password (UTF-8)', `Authorization: Basic ${Buffer.from('alice:pässwörd-Secret99').toString('base64')}`,
      'Authorization: Basic [REDACTED]'],
    ['Basic credentials whose UTF-8 bytes are C1 controls as latin1', `Basic ${Buffer.from('łukasz:zażółć-Secret1').toString('base64')}`,
      'Basic [REDACTED]'],
    ['Basic credentials encoded as latin1', `Basic ${Buffer.from('jörg:geheim-ß', 'latin1').toString('base64')}`, 'Basic [REDACTED]'],
    ['an sk- key glued after an underscore', 'MY_KEY_sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'MY_KEY_[REDACTED]'],
    ['an AKIA key glued after lower-case letters', 'idAKIAIOSFODNN7EXAMPLE', 'id[REDACTED]'],
    ['a ghp_ token glued after an underscore', 'GH_ghp_0123456789abcdefghijABCDEFGHIJ012345', 'GH_[REDACTED]'],
    ['a PEM block cut off before its end', 'x -----BEGIN PRIVATE KEY-----\nMIIEv', 'x [REDACTED]'],
    ['`Authorization: token …` (GitHub\'s scheme)', 'Authorization: token 0123456789abcdef0123456789abcdef01234567',
      'Authorization: token [REDACTED]'],
    ['an Authorization token scheme in JSON text', '{"proxy-authorization": "Token abcdef0123456789"}', '{"proxy-authorization": "Token [REDACTED]"}'],
    ['a Slack bot token', 'slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx ok', 'slack [REDACTED] ok'],
    ['a Slack user token glued after a dot', 'xoxe.xoxp-1-Mi0yLTEyMzQ1Njc4OTAxMi0xMjM0NTY3ODkw', 'xoxe.[REDACTED]'],
    ['a Google API key', 'https://maps.googleapis.com/api?key=AIzaSyA-1234567890abcdefghijklmnopqrstu&q=x',
      'https://maps.googleapis.com/api?key=[REDACTED]&q=x'],
    ['a JWT', 'id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U.', 'id [REDACTED].'],
    ['an unsigned JWT', '"eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0."', '"[REDACTED]"'],
    ['a Stripe restricted key', 'rk_live_51H8abcdefghijklmnopqrstuvwx', '[REDACTED]'],
    ['a Stripe secret test key glued after an underscore', 'STRIPE_sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'STRIPE_[REDACTED]'],
    ['a DSN\'s password query parameter', 'postgres://app@db.internal/prod?password=s3cr3t-pw&sslmode=require',
      'postgres://app@db.internal/prod?password=[REDACTED]&sslmode=require'],
    ['secret query parameters in any case', '/cb?code=1&Access_Token=abc.def&PWD=hunter2#x&secret=s;token=t',
      '/cb?code=1&Access_Token=[REDACTED]&PWD=[REDACTED]#x&secret=[REDACTED];token=[REDACTED]'],
    ['a labelled AWS secret access key (ini)', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
      'aws_secret_access_key = [REDACTED]\n'],
    ['a labelled AWS secret access key (env, JSON)', 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY {"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}',
      'AWS_SECRET_ACCESS_KEY=[REDACTED] {"SecretAccessKey": "[REDACTED]"}'],
  ])('redacts %s', (_, input, output) => {
    expect(redact(input)).toBe(output)
  })

  it('leaves ordinary text alone', () => {
    for (const text of ['task-runner --ask', 'Bearer of bad news', 'AKIA', 'ghp_short', 'sk-short', 'Basic settings', 'Basic authentication',
      'ssh://git@github.com/a/b', 'https://example.com/a:b@c', 'task-abcdefghijklmnopqrstuvwxyz', 'XAKIAIOSFODNN7EXAMPLE',
      // a bare 40-character base64 string (git SHAs, hashes), a Stripe publishable key (public), token counts
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'commit 0123456789abcdef0123456789abcdef01234567', 'pk_live_51H8abcdefghijklmnopqrstuvwx',
      'max_tokens=100 token_count=5', 'the token limit: 4096 tokens', 'Authorization: required', 'Authorization: token expired',
      'xoxb-short', 'AIzaShort', 'eyJhbGciOiJIUzI1NiJ9', 'sk_live_short', '?page=2&tokens=5&pwd_hint=x', 'password: see the docs',
      'secret_access_key_id=AKIA', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY0123']) {
      expect(redact(text)).toBe(text)
    }
  })

  it('walks nested values and keys without modifying the input', () => {
    const input = Object.freeze({
      headers: Object.freeze([Object.freeze({ Authorization: 'Bearer abcdefgh12345678' })]),
      'sk-AbCdEfGhIjKlMnOpQrStUv': 1,
      count: 3,
      ok: true,
      nothing: null,
    })
    expect(redact(input)).toEqual({
      headers: [{ Authorization: 'Bearer [REDACTED]' }],
      '[REDACTED]': 1,
      count: 3,
      ok: true,
      nothing: null,
    })
    expect(input.headers[0].Authorization).toBe('Bearer abcdefgh12345678')
  })

  it('adds configured patterns after the built-in ones', () => {
    const custom = createRedactor([], { extra: ['corp-[0-9a-f]{8}', 'password=\\S+'] })
    expect(custom('corp-deadbeef password=hunter2 sk-AbCdEfGhIjKlMnOpQrStUv'))
      .toBe('[REDACTED] [REDACTED] [REDACTED]')
  })
})

describe('patternProblem', () => {
  it('names a source that does not compile or matches the empty string, and passes a good one', () => {
    expect(patternProblem('corp-[0-9')).toMatch(/^is not a valid regular expression: "corp-\[0-9" \(.+\); fix or remove it$/)
    expect(patternProblem('x*')).toMatch(/^matches the empty string \("x\*"\)/)
    expect(patternProblem('corp-[0-9a-f]{8}')).toBeUndefined()
  })
})

describe('the built-ins\' quick pre-check', () => {
  /** The built-ins applied one after another, with no pre-check: what redaction must equal. */
  const reference = (input: string) => BUILT_IN_PATTERNS.reduce((out, { pattern, replacement }) => {
    pattern.lastIndex = 0
    return typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement)
  }, input)
  const part = fc.oneof(
    fc.constantFrom('-----BEGIN RSA PRIVATE KEY-----\n', '-----END RSA PRIVATE KEY-----', 'Bearer ', 'BEARER ', 'Basic ', 'dXNlcjpwdw==', 'https://', 'a:b@', 'sk-', 'AKIA', 'ASIA',
      'ghp_', 'gho_', 'github_pat_', ' ', '\n', '.', '=', '_', ':', '@', '/', '?', '&', ';', '"',
      'Authorization: token ', 'Proxy-Authorization', 'TOKEN ', 'xoxb-', 'xoxp-', 'AIza', 'eyJ', 'sk_live_', 'rk_test_',
      'password=', 'pwd=', 'Secret=', 'access_token=', 'api_key=', 'aws_secret_access_key', 'SecretAccessKey', ' = ',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
    fc.stringMatching(/^[A-Za-z0-9_-]{0,24}$/),
  )

  it('lets through every string a built-in pattern could change, so redaction is what the patterns alone give', () => {
    fc.assert(fc.property(fc.array(part, { maxLength: 8 }).map((parts) => parts.join('')), (input) => {
      if (reference(input) !== input) expect(MAY_MATCH_BUILT_IN.test(input)).toBe(true)
      expect(redact(input)).toBe(reference(input))
    }), { numRuns: 2000 })
  })
})
