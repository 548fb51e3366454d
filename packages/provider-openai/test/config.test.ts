import { describe, expect, it } from 'vitest'
import { PROVIDER_CONFIG } from '../src/index.js'
import { DEFAULT_BASE_URL, resolveConfig } from '../src/config.js'
import { createProvider } from '../src/provider.js'

const ok = { model: 'deepseek-chat', apiKey: 'sk-abc' }

/** The message `resolveConfig(raw)` throws (it must throw a `ProviderConfigError`). */
function refusal(raw: unknown): string {
  try {
    resolveConfig(raw)
  } catch (error) {
    expect(error).toMatchObject({ code: PROVIDER_CONFIG, name: 'ProviderConfigError' })
    return String(error)
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`)
}

describe('resolveConfig', () => {
  it('fills in the defaults', () => {
    const config = resolveConfig(ok)
    expect(config).toEqual({
      baseURL: DEFAULT_BASE_URL, endpoint: 'https://api.deepseek.com/chat/completions',
      shownEndpoint: 'https://api.deepseek.com/chat/completions', apiKey: 'sk-abc', model: 'deepseek-chat',
      headers: {}, stream: true, maxRetries: 2, retryBaseDelayMs: 500, maxRetryDelayMs: 60_000, idleTimeoutMs: 120_000,
      credentials: 'apiKey', redact: expect.any(Function),
    })
    expect(config.redact('key sk-abc.')).toBe('key [REDACTED].')
  })

  it('strips trailing slashes from baseURL and appends the endpoint path', () => {
    expect(resolveConfig({ ...ok, baseURL: 'https://api.openai.com/v1/' }).endpoint).toBe('https://api.openai.com/v1/chat/completions')
  })

  it('keeps a query on the endpoint and shows its values redacted, except api-version', () => {
    const config = resolveConfig({ ...ok, baseURL: 'https://gw.example.test/openai/?api-version=2024-06-01&api-key=s3cr3t%2Bvalue' })
    expect(config.endpoint).toBe('https://gw.example.test/openai/chat/completions?api-version=2024-06-01&api-key=s3cr3t%2Bvalue')
    expect(config.baseURL).toBe('https://gw.example.test/openai?api-version=2024-06-01&api-key=[REDACTED]')
    expect(config.shownEndpoint).toBe('https://gw.example.test/openai/chat/completions?api-version=2024-06-01&api-key=[REDACTED]')
    expect(config.redact('got s3cr3t+value and s3cr3t%2bvalue')).toBe('got [REDACTED] and [REDACTED]')
  })

  it('needs no apiKey: a server without keys gets no Authorization header', () => {
    const config = resolveConfig({ model: 'llama3' })
    expect(config).not.toHaveProperty('apiKey')
    expect(config.credentials).toBe('none')
    expect(resolveConfig({ model: 'm', headers: { 'api-key': 'azure-secret-1' } }).credentials).toBe('elsewhere')
    expect(resolveConfig({ model: 'm', headers: { 'user-agent': 'rein' } }).credentials).toBe('none')
  })

  it('trims the key and header values as fetch sends them', () => {
    const config = resolveConfig({ ...ok, apiKey: '  sk-from-a-file\n', headers: { 'x-api-key': '\tk-123456789 ' } })
    expect(config.apiKey).toBe('sk-from-a-file')
    expect(config.headers).toEqual({ 'x-api-key': 'k-123456789' })
  })

  it.each([
    [{ apiKey: 'k' }, '"model" must be a non-empty string'],
    [{ ...ok, model: ' ' }, '"model" must be a non-empty string'],
    [{ model: 'm', apiKey: 42 }, '"apiKey" must be a string, e.g. apiKey: ${env:DEEPSEEK_API_KEY}, or left out for a server that needs no key (got a number)'],
    [{ ...ok, apiKey: '' }, '"apiKey" is empty'],
    [{ ...ok, apiKey: ' \n' }, '"apiKey" is empty'],
    [{ ...ok, baseURL: 'api.deepseek.com' }, '"baseURL" must be an http(s) URL'],
    [{ ...ok, baseURL: 'ftp://x' }, '"baseURL" must be an http(s) URL'],
    [{ ...ok, baseURL: 'https://x/v1#top' }, 'without a fragment'],
    [{ ...ok, baseURL: 'https://user:pw@x/v1' }, 'without a user name or password (send credentials with apiKey or headers) (got "https://…@x/v1")'],
    [{ ...ok, headers: { 'x-a': 1 } }, '"headers.x-a" must be a string (got a number)'],
    [{ ...ok, headers: { 'bad name': 'v' } }, '"headers" must be an object whose keys are HTTP header names (got "bad name")'],
    [{ ...ok, stream: 'yes' }, '"stream" must be true or false (got "yes")'],
    [{ ...ok, maxRetries: -1 }, '"maxRetries" must be an integer from 0 to 10 (got -1)'],
    [{ ...ok, idleTimeoutMs: 0 }, '"idleTimeoutMs" must be a number of milliseconds from 1 to 2147483647 (got 0)'],
    [{ ...ok, maxRetryDelayMs: 30 * 86_400_000 }, '"maxRetryDelayMs" must be a number of milliseconds from 0 to 2147483647 (got 2592000000)'],
    [{ ...ok, idle_timeout_ms: 5 }, 'unknown key "idle_timeout_ms" (did you mean "idleTimeoutMs"?)'],
    [{ ...ok, temperature: 3 }, '"temperature" must be a number from 0 to 2 (got 3)'],
    [{ ...ok, maxTokens: 1.5 }, '"maxTokens" must be a positive integer (got 1.5)'],
    [{ ...ok, parallelToolCalls: 1 }, '"parallelToolCalls" must be true or false'],
    [{ ...ok, maxToken: 5 }, 'unknown key "maxToken"; the known keys are baseURL, apiKey, model'],
    ['deepseek-chat', 'must be an object'],
  ])('refuses %j, naming the key', (raw, says) => {
    expect(refusal(raw)).toContain(says)
  })

  it.each([
    ['an apiKey with a line break inside', { ...ok, apiKey: 'sk-live-0123\n456789' }, '"apiKey" contains a line break'],
    ['an apiKey with a NUL', { ...ok, apiKey: 'sk-live-0123\u0000456789' }, '"apiKey" contains a NUL character'],
    ['an apiKey outside Latin-1', { ...ok, apiKey: 'sk-live-0123€456789' }, '"apiKey" contains a character outside Latin-1'],
    ['a header value with a line break', { ...ok, headers: { 'api-key': 'sk-live-0123\r\n456789' } }, '"headers.api-key" contains a line break'],
  ])('refuses %s without showing it', (_, raw, says) => {
    const message = refusal(raw)
    expect(message).toContain(`${says}, which cannot be sent in an HTTP header; remove it`)
    expect(message).toContain('The value is not shown.')
    expect(message).not.toMatch(/0123|456789/)
  })

  it('never prints the apiKey, a header value, or a query value of baseURL', () => {
    expect(refusal({ apiKey: 'sk-live-0123456789', model: 42 })).not.toContain('sk-live')
    expect(refusal({ ...ok, headers: { 'api-key': 1234567890 } })).not.toContain('1234567890')
    expect(refusal({ ...ok, apiKey: 1234567890 })).not.toContain('1234567890')
    const url = refusal({ ...ok, baseURL: 'ftp://gw.example.test/v1?key=q-secret-42#frag' })
    expect(url).toContain('(got "ftp://gw.example.test/v1?…")')
    expect(url).not.toContain('q-secret-42')
    expect(refusal({ ...ok, baseURL: 'gw.example.test/v1?key=q-secret-42' })).not.toContain('q-secret-42')
  })

  it('is applied by createProvider, at creation', () => {
    expect(() => createProvider({ model: 'm', apiKey: 7 } as never)).toThrow(expect.objectContaining({ code: PROVIDER_CONFIG }))
    expect(createProvider({ ...ok, baseURL: 'http://127.0.0.1:9/v1' })).toMatchObject({ model: 'deepseek-chat', baseURL: 'http://127.0.0.1:9/v1' })
    expect(createProvider({ ...ok, baseURL: 'http://127.0.0.1:9/v1?key=q-secret-42' }).baseURL).toBe('http://127.0.0.1:9/v1?key=[REDACTED]')
  })
})
