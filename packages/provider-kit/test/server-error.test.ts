/** What a server said is read from JSON in the provider's shape or taken as text, and quoted redacted, folded and cut. */
import { describe, expect, it } from 'vitest'
import { createRedactor } from '../src/secrets.js'
import { MAX_QUOTE, quote, readErrorBody } from '../src/server-error.js'

const site = { baseURL: 'https://x', model: 'm', redact: createRedactor(['Bearer tok-12345678', 'p@ss word']) }
const read = (value: unknown) => (typeof value === 'object' && value !== null && 'msg' in value ? { message: String(value.msg) } : undefined)

describe('readErrorBody', () => {
  it('asks the provider\'s reader for JSON, and falls back to the trimmed text', () => {
    expect(readErrorBody('{"msg":"no"}', read)).toEqual({ message: 'no' })
    expect(readErrorBody(' {"other":1} ', read)).toEqual({ message: '{"other":1}' })
    expect(readErrorBody(' Bad Gateway\n', read)).toEqual({ message: 'Bad Gateway' })
  })
})

describe('quote', () => {
  it('redacts, folds white space (redacting what folding joins) and says when the body is empty', () => {
    expect(quote('key:\n  Bearer\n\ttok-12345678 and tok-12345678', site)).toBe('key: Bearer [REDACTED] and [REDACTED]')
    expect(quote('pass: p@ss\nwordy', site)).toBe('pass: [REDACTED]y')
    expect(quote(' \n ', site)).toBe('(empty body)')
  })

  it('cuts a long text and counts what it left out', () => {
    expect(quote('x'.repeat(MAX_QUOTE + 7), site)).toBe(`${'x'.repeat(MAX_QUOTE)}… (7 more characters)`)
  })
})
