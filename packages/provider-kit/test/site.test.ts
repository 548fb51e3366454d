/**
 * Every error a provider builds with `failWith` has its message, string properties and cause
 * redacted (the cause as the site asks); an abort carries the caller's own reason.
 */
import { secretLeaks } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { PROVIDER_ABORTED, ProviderCodes } from '../src/codes.js'
import { abortedError, ProviderError, ProviderUnavailableError } from '../src/errors.js'
import { NETWORK_FACTS } from '../src/safe-cause.js'
import { createRedactor } from '../src/secrets.js'
import { failWith, type RequestSite } from '../src/site.js'

const SECRET = 'sk-site-5e4d3c2b1a'
const site: RequestSite = { baseURL: 'https://api.example.test', model: 'm', redact: createRedactor([SECRET]) }

describe('failWith', () => {
  it('redacts the message, the error type, the request id and the cause, keeping the class and the facts', () => {
    const cause = Object.assign(new TypeError(`fetch failed: ${SECRET}`), { code: 'ECONNRESET', request: { key: SECRET } })
    const error = failWith(site, ProviderUnavailableError, `down: ${SECRET}`, { status: 503, retryAfterMs: 10, errorType: `t ${SECRET}`, requestId: SECRET, cause })
    expect(error).toBeInstanceOf(ProviderUnavailableError)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', name: 'ProviderUnavailableError', status: 503, retryAfterMs: 10, errorType: 't [REDACTED]', requestId: '[REDACTED]' })
    expect(error.message).toBe('down: [REDACTED]')
    expect(error.cause).toBeInstanceOf(TypeError)
    expect(error.cause).toMatchObject({ code: 'ECONNRESET', request: { key: '[REDACTED]' } })
    expect(secretLeaks(error, SECRET)).toEqual([])
  })

  it('keeps only what the site names in a cause', () => {
    const cause = Object.assign(new TypeError('fetch failed'), { code: 'ECONNRESET', request: { key: SECRET } })
    const error = failWith({ ...site, keepInCause: NETWORK_FACTS }, ProviderUnavailableError, 'down', { cause })
    expect(error.cause).toMatchObject({ message: 'fetch failed', code: 'ECONNRESET' })
    expect(error.cause).not.toHaveProperty('request')
  })

  it('leaves out the facts it was not given', () => {
    const error = failWith(site, ProviderUnavailableError, 'down')
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'PROVIDER_UNAVAILABLE', name: 'ProviderUnavailableError' })
    expect(error.cause).toBeUndefined()
  })
})

describe('abortedError', () => {
  it('is an AbortError whose cause is the signal\'s reason, as given', () => {
    const reason = new Error(`user pressed Ctrl-C ${SECRET}`)
    const controller = new AbortController()
    controller.abort(reason)
    expect(abortedError(controller.signal)).toMatchObject({ code: PROVIDER_ABORTED, name: 'AbortError', message: 'the model request was aborted', cause: reason })
  })
})

describe('the code catalogue', () => {
  it('names every code by its own string', () => {
    for (const [name, code] of Object.entries(ProviderCodes)) expect(code).toBe(name)
    expect(Object.keys(ProviderCodes)).toHaveLength(10)
  })
})
