import { describe, expect, it } from 'vitest'
import { ProviderCodes as codes } from '../src/index.js'
import { classifyHttpError, isContextLengthError, readServerError } from '../src/classify.js'
import { siteFor } from './helpers.js'

const site = siteFor('https://api.example.test/v1', 'm-1', 'sk-secret-123')
const body = (message: string, code?: string) => JSON.stringify({ error: { message, type: 'invalid_request_error', code } })

describe('classifyHttpError', () => {
  it.each([
    [401, codes.PROVIDER_AUTH], [403, codes.PROVIDER_AUTH], [404, codes.PROVIDER_MODEL_NOT_FOUND],
    [429, codes.PROVIDER_RATE_LIMITED], [500, codes.PROVIDER_UNAVAILABLE], [502, codes.PROVIDER_UNAVAILABLE],
    [400, codes.PROVIDER_BAD_REQUEST], [422, codes.PROVIDER_BAD_REQUEST],
  ])('maps HTTP %i to %s, keeping the status', (status, code) => {
    const err = classifyHttpError({ status, body: body('nope'), attempts: 1 }, site)
    expect(err).toMatchObject({ code, status })
    expect(err.message).toContain('nope')
  })

  it('recognises a context-length 400 by code or by wording', () => {
    expect(classifyHttpError({ status: 400, body: body('too big', 'context_length_exceeded'), attempts: 1 }, site).code).toBe(codes.PROVIDER_CONTEXT_LENGTH)
    const err = classifyHttpError({ status: 400, body: body("This model's maximum context length is 65536 tokens."), attempts: 1 }, site)
    expect(err.code).toBe(codes.PROVIDER_CONTEXT_LENGTH)
    expect(err.message).toContain('too long for the context window of model "m-1"')
  })

  it('redacts the key from the message and the stack, and shortens long bodies', () => {
    const err = classifyHttpError({ status: 401, body: body(`bad key sk-secret-123 ${'x'.repeat(900)}`), attempts: 1 }, site)
    expect(err.message).not.toContain('sk-secret-123')
    expect(err.stack).not.toContain('sk-secret-123')
    expect(err.message).toContain('bad key [REDACTED]')
    expect(err.message).toMatch(/more characters/)
  })

  it.each([
    ['apiKey', 'Check that apiKey is set to a valid key for this server.'],
    ['elsewhere', 'Check the credentials in headers (or in the baseURL query), or set apiKey.'],
    ['none', 'This server wants an API key: set apiKey in the provider config (e.g. apiKey: ${env:OPENAI_API_KEY}).'],
  ] as const)('advises on a 401 by what the request sent (%s)', (credentials, advice) => {
    const err = classifyHttpError({ status: 401, body: body('Unauthorized'), attempts: 1 }, { ...site, credentials })
    expect(err.message).toBe(`authentication failed at https://api.example.test/v1 (HTTP 401): Unauthorized. ${advice}`)
  })

  it('says how many attempts were made, the wait asked for, and an appended note', () => {
    const err = classifyHttpError({ status: 429, body: '', attempts: 3, retryAfterMs: 2000, note: 'Not retried.' }, site)
    expect(err.message).toBe('rate limited by https://api.example.test/v1 (HTTP 429) after 3 attempts: (empty body). The server asked to wait 2s. Not retried.')
    expect(err.retryAfterMs).toBe(2000)
  })
})

describe('readServerError', () => {
  it('reads the common error shapes and falls back to the text', () => {
    expect(readServerError(body('m', 'c'))).toEqual({ message: 'm', code: 'c', type: 'invalid_request_error' })
    expect(readServerError('{"error":"plain"}')).toEqual({ message: 'plain' })
    expect(readServerError('{"detail":"Not Found"}')).toEqual({ message: 'Not Found' })
    expect(readServerError(' Bad Gateway ')).toEqual({ message: 'Bad Gateway' })
  })

  it('does not call an unrelated 400 a context-length error', () => {
    expect(isContextLengthError({ message: "Invalid schema for function 'read_file'" })).toBe(false)
  })
})
