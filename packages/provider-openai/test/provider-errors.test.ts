import { afterEach, describe, expect, it } from 'vitest'
import { ProviderCodes as codes, ProviderError } from '../src/index.js'
import { startFixtureServer, type FixtureServer } from './fixture-server.js'
import { KEY, providerFor, request } from './helpers.js'

let server: FixtureServer
afterEach(async () => { await server.close() })

async function failure(reply: string, stream = true): Promise<ProviderError> {
  server = await startFixtureServer({ json: reply }, { sse: 'stream-text.sse' })
  const err = await providerFor(server, { stream }).generate(request()).then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(ProviderError)
  expect(server.requests).toHaveLength(1)
  return err as ProviderError
}

describe('errors that say what went wrong', () => {
  it('401: an auth error that never contains the key, though the server echoed it', async () => {
    const err = await failure('error-401.json')
    expect(err).toMatchObject({ code: codes.PROVIDER_AUTH, name: 'ProviderAuthError', status: 401 })
    expect(err.message).toContain('Incorrect API key provided: [REDACTED]')
    expect(err.message).toContain('Check that apiKey is set')
    expect(`${err.message}\n${err.stack}\n${JSON.stringify(err)}`).not.toContain(KEY)
  })

  it('404: names the model and the base URL', async () => {
    const err = await failure('error-404.json', false)
    expect(err.code).toBe(codes.PROVIDER_MODEL_NOT_FOUND)
    expect(err.message).toContain(`model "deepseek-chat" was not found at ${server.baseURL} (HTTP 404)`)
    expect(err.message).toContain('does not exist')
  })

  it('400 context too long: says so', async () => {
    const err = await failure('error-context-length.json')
    expect(err.code).toBe(codes.PROVIDER_CONTEXT_LENGTH)
    expect(err.message).toMatch(/^the conversation is too long for the context window of model "deepseek-chat" \(HTTP 400\): This model's maximum context length is 65536 tokens/)
  })

  it('other 400: a bad request quoting the server', async () => {
    const err = await failure('error-400.json')
    expect(err).toMatchObject({ code: codes.PROVIDER_BAD_REQUEST, status: 400 })
    expect(err.message).toContain("Invalid schema for function 'read_file'")
  })

  it.each([true, false])('a 2xx web page instead of an API answer (stream: %s): a bad response', async (stream) => {
    server = await startFixtureServer({ json: 'ok-html.json' })
    await expect(providerFor(server, { stream }).generate(request())).rejects.toMatchObject({
      code: codes.PROVIDER_BAD_RESPONSE, message: expect.stringContaining('a body that is not JSON, not a Chat Completions response: <!DOCTYPE html>'),
    })
  })
})
