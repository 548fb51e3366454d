/**
 * A cause is a redacted copy of a foreign error: every string it keeps passes the redactor, its
 * class survives, cycles and hostile objects do not break it; with `keep`, only the named
 * properties of an error (and its nested causes) survive, and plain data is not walked.
 */
import { secretLeaks } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { NETWORK_FACTS, redactedCopy } from '../src/safe-cause.js'
import { createRedactor } from '../src/secrets.js'

const SECRET = 'sk-live-5e4d3c2b1a09'
const redact = createRedactor([SECRET])

/** Asserts that `SECRET` shows nowhere in `error` (message, stack, properties, keys, causes). */
function expectNoSecret(error: unknown, secret: string): void {
  expect(error).toBeInstanceOf(Error)
  expect(secretLeaks(error, secret)).toEqual([])
}

/** The real error fetch's `Headers` throws for a value it cannot send: it quotes the value. */
function headersError(): TypeError {
  try {
    new Headers({ authorization: `Bearer ${SECRET}\nX-Injected: 1` })
  } catch (error) {
    return error as TypeError
  }
  throw new Error('expected Headers to refuse a value with a line break')
}

describe('redactedCopy', () => {
  it('takes the secret out of a real platform error that quotes it, keeping its type and name', () => {
    const original = headersError()
    expect(original.message).toContain(SECRET)
    const copy = redactedCopy(original, redact) as TypeError
    expect(copy).toBeInstanceOf(TypeError)
    expect(copy.name).toBe('TypeError')
    expect(copy.message).toContain('[REDACTED]')
    expectNoSecret(copy, SECRET)
    expect(original.message).toContain(SECRET)
  })

  it('walks the cause chain, own properties and their keys, arrays and AggregateError#errors', () => {
    const inner = Object.assign(new Error(`socket said ${SECRET}`), { code: 'ECONNRESET', request: { headers: { authorization: `Bearer ${SECRET}` } } })
    const middle = new TypeError('fetch failed', { cause: inner })
    const outer = new AggregateError([middle, { [`key ${SECRET}`]: [SECRET] }], 'all attempts failed', { cause: middle })
    const copy = redactedCopy(outer, redact) as AggregateError & { cause: TypeError & { cause: Error & { code: string } } }
    expect(copy).toBeInstanceOf(AggregateError)
    expect(copy.cause.cause.code).toBe('ECONNRESET')
    expect(copy.cause.cause.message).toBe('socket said [REDACTED]')
    expect(copy.errors[1]).toEqual({ 'key [REDACTED]': ['[REDACTED]'] })
    expect(copy.errors[0]).toBe(copy.cause)
    expectNoSecret(copy, SECRET)
  })

  it('copies an error whose name and message live behind getters only the original may call', () => {
    const original = new DOMException(`refused ${SECRET}`, 'NetworkError')
    const copy = redactedCopy(original, redact) as DOMException
    expect(copy.name).toBe('NetworkError')
    expect(copy.message).toBe('refused [REDACTED]')
    expectNoSecret(copy, SECRET)
  })

  it('survives cycles, throwing getters, and objects it cannot walk', () => {
    const looped: Record<string, unknown> = { note: SECRET }
    looped.self = looped
    const error = Object.assign(new Error('x'), { looped, headers: new Headers({ 'x-api-key': SECRET }), at: new Date(0), n: 1n })
    Object.defineProperty(error, 'trap', { enumerable: true, get: () => { throw new Error(SECRET) } })
    const copy = redactedCopy(error, redact) as Record<string, any>
    expect(copy.looped.self).toBe(copy.looped)
    expect(copy.looped.note).toBe('[REDACTED]')
    expect(copy.headers).toBe('[Headers]')
    expect(copy.at).toBe('[Date]')
    expect(copy.n).toBe(1n)
    expect(copy.trap).toBe('[unreadable]')
    expectNoSecret(copy, SECRET)
  })

  it('returns strings redacted and other primitives as they are', () => {
    expect(redactedCopy(`a ${SECRET}`, redact)).toBe('a [REDACTED]')
    expect(redactedCopy(undefined, redact)).toBeUndefined()
    expect(redactedCopy(42, redact)).toBe(42)
  })
})

describe('redactedCopy with keep', () => {
  it('keeps only the named properties of an error and its nested causes, redacted', () => {
    const inner = Object.assign(new Error(`socket ${SECRET}`), { code: 'ECONNRESET', errno: -104, headers: { 'x-api-key': SECRET } })
    const outer = Object.assign(new TypeError(`fetch failed for ${SECRET}`, { cause: inner }), { request: { url: `/v1?key=${SECRET}` } })
    const copy = redactedCopy(outer, redact, NETWORK_FACTS) as TypeError & Record<string, any>
    expect(copy).toBeInstanceOf(TypeError)
    expect(copy.message).toBe('fetch failed for [REDACTED]')
    expect(copy).not.toHaveProperty('request')
    expect(copy.cause).toMatchObject({ message: 'socket [REDACTED]', code: 'ECONNRESET', errno: -104 })
    expect(copy.cause).not.toHaveProperty('headers')
    expectNoSecret(copy, SECRET)
  })

  it('does not walk plain data, even inside AggregateError#errors', () => {
    const copy = redactedCopy(new AggregateError([new Error(SECRET), { body: SECRET }], 'all failed'), redact, NETWORK_FACTS) as AggregateError
    expect(copy.errors[0]).toMatchObject({ message: '[REDACTED]' })
    expect(copy.errors[1]).toBe('[Object]')
    expect(redactedCopy({ body: SECRET }, redact, NETWORK_FACTS)).toBe('[Object]')
  })
})
