import { describe, expect, it } from 'vitest'
import { redactedCopy } from '../src/safe-cause.js'
import { createRedactor } from '../src/secrets.js'
import { expectNoSecret } from './leaks.js'

const SECRET = 'sk-live-5e4d3c2b1a09'
const redact = createRedactor([SECRET])

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
    expect(copy.message).toContain('[redacted]')
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
    expect(copy.cause.cause.message).toBe('socket said [redacted]')
    expect(copy.errors[1]).toEqual({ 'key [redacted]': ['[redacted]'] })
    expect(copy.errors[0]).toBe(copy.cause)
    expectNoSecret(copy, SECRET)
  })

  it('copies an error whose name and message live behind getters only the original may call', () => {
    const original = new DOMException(`refused ${SECRET}`, 'NetworkError')
    const copy = redactedCopy(original, redact) as DOMException
    expect(copy.name).toBe('NetworkError')
    expect(copy.message).toBe('refused [redacted]')
    expectNoSecret(copy, SECRET)
  })

  it('survives cycles, throwing getters, and objects it cannot walk', () => {
    const looped: Record<string, unknown> = { note: SECRET }
    looped.self = looped
    const error = Object.assign(new Error('x'), { looped, headers: new Headers({ 'x-api-key': SECRET }), at: new Date(0), n: 1n })
    Object.defineProperty(error, 'trap', { enumerable: true, get: () => { throw new Error(SECRET) } })
    const copy = redactedCopy(error, redact) as Record<string, any>
    expect(copy.looped.self).toBe(copy.looped)
    expect(copy.looped.note).toBe('[redacted]')
    expect(copy.headers).toBe('[Headers]')
    expect(copy.at).toBe('[Date]')
    expect(copy.n).toBe(1n)
    expect(copy.trap).toBe('[unreadable]')
    expectNoSecret(copy, SECRET)
  })

  it('returns strings redacted and other primitives as they are', () => {
    expect(redactedCopy(`a ${SECRET}`, redact)).toBe('a [redacted]')
    expect(redactedCopy(undefined, redact)).toBeUndefined()
    expect(redactedCopy(42, redact)).toBe(42)
  })
})
