import { describe, expect, it } from 'vitest'
import { PROVIDER_CONFIG } from '../src/codes.js'
import { DEFAULT_BASE_URL, resolveConfig } from '../src/config.js'
import { createProvider } from '../src/provider.js'

const ok = { model: 'deepseek-chat', apiKey: 'sk-abc' }

describe('resolveConfig', () => {
  it('fills in the defaults', () => {
    expect(resolveConfig(ok)).toEqual({
      baseURL: DEFAULT_BASE_URL, endpoint: 'https://api.deepseek.com/chat/completions', apiKey: 'sk-abc', model: 'deepseek-chat',
      headers: {}, stream: true, maxRetries: 2, retryBaseDelayMs: 500, maxRetryDelayMs: 60_000,
    })
  })

  it('strips trailing slashes from baseURL and appends the endpoint path', () => {
    expect(resolveConfig({ ...ok, baseURL: 'https://api.openai.com/v1/' }).endpoint).toBe('https://api.openai.com/v1/chat/completions')
  })

  it.each([
    [{ apiKey: 'k' }, '"model" must be a non-empty string'],
    [{ ...ok, model: ' ' }, '"model" must be a non-empty string'],
    [{ model: 'm' }, '"apiKey" must be a string, e.g. apiKey: ${env:DEEPSEEK_API_KEY} (got nothing)'],
    [{ ...ok, apiKey: '' }, '"apiKey" is empty'],
    [{ ...ok, baseURL: 'api.deepseek.com' }, '"baseURL" must be an http(s) URL'],
    [{ ...ok, baseURL: 'ftp://x' }, '"baseURL" must be an http(s) URL'],
    [{ ...ok, baseURL: 'https://x/v1?key=1' }, 'without a query'],
    [{ ...ok, headers: { 'x-a': 1 } }, '"headers.x-a" must be a string (got 1)'],
    [{ ...ok, stream: 'yes' }, '"stream" must be true or false (got "yes")'],
    [{ ...ok, maxRetries: -1 }, '"maxRetries" must be an integer from 0 to 10 (got -1)'],
    [{ ...ok, temperature: 3 }, '"temperature" must be a number from 0 to 2 (got 3)'],
    [{ ...ok, maxTokens: 1.5 }, '"maxTokens" must be a positive integer (got 1.5)'],
    [{ ...ok, parallelToolCalls: 1 }, '"parallelToolCalls" must be true or false'],
    [{ ...ok, maxToken: 5 }, 'unknown key "maxToken"; the known keys are baseURL, apiKey, model'],
    ['deepseek-chat', 'must be an object'],
  ])('refuses %j, naming the key', (raw, says) => {
    expect(() => resolveConfig(raw)).toThrow(expect.objectContaining({ code: PROVIDER_CONFIG, name: 'ProviderConfigError', message: expect.stringContaining(says) }))
  })

  it('never prints the apiKey value', () => {
    let message = ''
    try { resolveConfig({ apiKey: 'sk-live-0123456789', model: 42 }) } catch (err) { message = String(err) }
    expect(message).toContain('"model"')
    expect(message).not.toContain('sk-live')
  })

  it('is applied by createProvider, at creation', () => {
    expect(() => createProvider({ model: 'm' } as never)).toThrow(expect.objectContaining({ code: PROVIDER_CONFIG }))
    expect(createProvider({ ...ok, baseURL: 'http://127.0.0.1:9/v1' })).toMatchObject({ model: 'deepseek-chat', baseURL: 'http://127.0.0.1:9/v1' })
  })
})
