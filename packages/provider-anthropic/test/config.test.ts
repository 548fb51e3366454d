/**
 * `createProvider` validates its config once: defaults filled in, and every mistake refused
 * with a message that names the key, what it must be and the fix, never quoting a secret.
 */
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../src/config.js'
import { ProviderConfigError } from '../src/index.js'
import { createProvider } from '../src/provider.js'

const KEY = 'sk-ant-config-5e6f7a8b9c'
const base = { apiKey: KEY, model: 'claude-test', maxTokens: 1024 }

function messageOf(config: unknown): string {
  try { resolveConfig(config) } catch (error) {
    expect(error).toBeInstanceOf(ProviderConfigError)
    expect((error as ProviderConfigError).code).toBe('PROVIDER_CONFIG')
    return (error as Error).message
  }
  throw new Error('the config was accepted')
}

describe('config', () => {
  it('fills in the defaults', () => {
    const c = resolveConfig(base)
    expect(c).toMatchObject({ baseURL: 'https://api.anthropic.com', endpoint: 'https://api.anthropic.com/v1/messages', stream: true, maxRetries: 2, idleTimeoutMs: 120_000, anthropicVersion: '2023-06-01', headers: {} })
    expect(c.temperature).toBeUndefined()
  })

  it('takes baseURL as the server root, trailing slashes dropped', () => {
    expect(resolveConfig({ ...base, baseURL: 'https://gateway.example/anthropic/' }).endpoint).toBe('https://gateway.example/anthropic/v1/messages')
  })

  it.each([
    [{ ...base, maxTokens: undefined }, '"maxTokens" is required: the Messages API needs a limit on the length of each answer; set e.g. maxTokens: 4096'],
    [{ ...base, maxTokens: 0 }, '"maxTokens" must be a positive integer such as 4096 (got 0)'],
    [{ ...base, model: '' }, '"model" must be a non-empty string such as "claude-sonnet-4-5" (got "")'],
    [{ ...base, apiKey: undefined }, '"apiKey" is missing; set it, e.g. apiKey: ${env:ANTHROPIC_API_KEY} (or send the credential yourself as headers.x-api-key or headers.authorization)'],
    [{ ...base, apiKey: '  ' }, '"apiKey" is empty; set it (e.g. apiKey: ${env:ANTHROPIC_API_KEY}) and check that the variable holds the key'],
    [{ ...base, apiKey: 42 }, '"apiKey" must be a string, e.g. apiKey: ${env:ANTHROPIC_API_KEY} (got a number)'],
    [{ ...base, temperature: 1.5 }, '"temperature" must be a number from 0 to 1 (got 1.5)'],
    [{ ...base, maxRetries: -1 }, '"maxRetries" must be an integer from 0 to 10 (got -1)'],
    [{ ...base, stream: 'yes' }, '"stream" must be true or false (got "yes")'],
    [{ ...base, anthropicVersion: 'latest' }, '"anthropicVersion" must be an API version date such as "2023-06-01" (got "latest")'],
    [{ ...base, baseURL: 'https://api.anthropic.com/v1' }, '"baseURL" is the server root, as in the official SDK: requests go to <baseURL>/v1/messages, so drop the trailing /v1 (got "https://api.anthropic.com/v1")'],
    [{ ...base, baseURL: 'ftp://x' }, '"baseURL" must be the server root, an http(s) URL such as "https://api.anthropic.com" (got "ftp://x")'],
    [{ ...base, max_tokens: 5 }, 'unknown key "max_tokens" (did you mean "maxTokens"?); the known keys are apiKey, model, maxTokens, baseURL, stream, maxRetries, temperature, headers, anthropicVersion, parallelToolCalls, retryBaseDelayMs, maxRetryDelayMs, idleTimeoutMs'],
    [{ ...base, idleTimeoutMs: 0 }, '"idleTimeoutMs" must be a number of milliseconds from 1 to 2147483647 (got 0)'],
    [{ ...base, maxRetryDelayMs: 30 * 86_400_000 }, '"maxRetryDelayMs" must be a number of milliseconds from 0 to 2147483647 (got 2592000000)'],
  ])('refuses %j', (config, message) => {
    expect(messageOf(config)).toBe(`@rein/provider-anthropic config: ${message}`)
  })

  it('accepts a credential sent in headers instead of apiKey', () => {
    const c = resolveConfig({ model: 'm', maxTokens: 5, headers: { Authorization: 'Bearer tok-123456789' } })
    expect(c.apiKey).toBeUndefined()
    expect(c.redact('Bearer tok-123456789 / tok-123456789')).toBe('[REDACTED] / [REDACTED]')
  })

  it('never quotes a secret: not the key, a header value, or what follows ? in a refused baseURL', () => {
    const messages = [
      messageOf({ ...base, apiKey: `${KEY}\n` + 'x' }),
      messageOf({ ...base, headers: { 'x-token': `${KEY}é\u0100` } }),
      messageOf({ ...base, headers: { 'x-token': 12345678 } }),
      messageOf({ ...base, baseURL: `https://user:${KEY}@host.example` }),
      messageOf({ ...base, baseURL: `https://host.example/?key=${KEY}` }),
    ]
    for (const m of messages) expect(m).not.toContain(KEY)
    expect(messages[0]).toBe('@rein/provider-anthropic config: "apiKey" contains a line break, which cannot be sent in an HTTP header; remove it (check the variable or file it comes from). The value is not shown.')
    expect(messages[2]).toBe('@rein/provider-anthropic config: "headers.x-token" must be a string (got a number)')
    expect(messages[4]).toBe('@rein/provider-anthropic config: "baseURL" must not have a query or fragment (got "https://host.example/?…"): requests go to <baseURL>/v1/messages')
  })

  it('never prints the key or a header value written into another field, in any spelling', () => {
    const token = 'gw-0123456789abcdef'
    const messages = [
      messageOf({ ...base, baseURL: `ftp://x/${KEY}` }),
      messageOf({ ...base, baseURL: `https://host.example/v1/${KEY.replaceAll('-', '%2D')}/v1` }),
      messageOf({ ...base, anthropicVersion: KEY }),
      messageOf({ ...base, temperature: KEY }),
      messageOf({ ...base, headers: { 'x-token': token }, parallelToolCalls: token }),
    ]
    for (const m of messages) {
      expect(m).toMatch(/^@rein\/provider-anthropic config: .*\[REDACTED\]/)
      expect(m).not.toContain('5e6f7a8b9c')
      expect(m).not.toContain('0123456789abcdef')
    }
    expect(messages[0]).toBe('@rein/provider-anthropic config: "baseURL" must be the server root, an http(s) URL such as "https://api.anthropic.com" (got "ftp://x/[REDACTED]")')
  })

  it('createProvider refuses a bad config when it is called, not on the first request', () => {
    expect(() => createProvider({ ...base, maxTokens: -3 })).toThrow(ProviderConfigError)
    expect(createProvider(base)).toMatchObject({ model: 'claude-test', baseURL: 'https://api.anthropic.com' })
  })
})
