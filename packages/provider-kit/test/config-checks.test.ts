/**
 * The shared config checks refuse with `<package> config:`, the key, what it must be and what it
 * got — a credential only by its type or its problem — and fill in the transport defaults.
 */
import { describe, expect, it } from 'vitest'
import { PROVIDER_CONFIG } from '../src/codes.js'
import { ConfigCheck } from '../src/config-checks.js'

const check = new ConfigCheck('@rein/provider-x')
const KEY = 'sk-live-0123456789'

/** The message `run` throws (it must throw a `ProviderConfigError`). */
function refusal(run: () => unknown): string {
  try { run() } catch (error) {
    expect(error).toMatchObject({ code: PROVIDER_CONFIG, name: 'ProviderConfigError' })
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('ConfigCheck', () => {
  it('names the key, what it must be and what it got; long strings by their length only', () => {
    expect(refusal(() => check.fail('model', 'a non-empty string', ''))).toBe('@rein/provider-x config: "model" must be a non-empty string (got "")')
    expect(refusal(() => check.fail('model', 'a name', 'x'.repeat(61)))).toBe('@rein/provider-x config: "model" must be a name (got a 61-character string)')
    expect(refusal(() => check.object([], '"model"'))).toBe('@rein/provider-x config must be an object with at least "model" (got an array)')
  })

  it('refuses unknown keys, suggesting the one probably meant', () => {
    expect(refusal(() => check.knownKeys({ max_tokens: 1, colour: 2 }, ['model', 'maxTokens']))).toBe(
      '@rein/provider-x config: unknown keys "max_tokens" (did you mean "maxTokens"?), "colour"; the known keys are model, maxTokens')
    expect(() => check.knownKeys({ model: 'm' }, ['model'])).not.toThrow()
  })

  it('reads optional numbers and booleans, refusing the wrong kind', () => {
    expect(check.number({ n: 3 }, 'n', (n) => n > 0, 'positive')).toBe(3)
    expect(check.number({}, 'n', (n) => n > 0, 'positive')).toBeUndefined()
    expect(refusal(() => check.number({ n: Number.NaN }, 'n', () => true, 'a number'))).toContain('"n" must be a number (got NaN)')
    expect(refusal(() => check.boolean({ b: 'yes' }, 'b'))).toContain('"b" must be true or false (got "yes")')
  })

  it('takes header values as fetch sends them, and refuses what fetch cannot send without showing it', () => {
    expect(check.headers({ 'x-api-key': `\t${KEY} ` })).toEqual({ 'x-api-key': KEY })
    expect(check.headers(undefined)).toEqual({})
    for (const [value, what] of [[`${KEY}\n1`, 'a line break'], [`${KEY}\u00001`, 'a NUL character'], [`${KEY}€`, 'a character outside Latin-1']]) {
      const message = refusal(() => check.headers({ 'x-token': value }))
      expect(message).toBe(`@rein/provider-x config: "headers.x-token" contains ${what}, which cannot be sent in an HTTP header; remove it (check the variable or file it comes from). The value is not shown.`)
    }
    expect(refusal(() => check.headers({ 'x-token': 12345678 }))).toBe('@rein/provider-x config: "headers.x-token" must be a string (got a number)')
    expect(refusal(() => check.headers({ 'bad name': 'v' }))).toContain('"headers" must be an object whose keys are HTTP header names (got "bad name")')
    expect(refusal(() => check.headers('x', 'an object, e.g. { a: "b" }'))).toContain('"headers" must be an object, e.g. { a: "b" } (got "x")')
  })

  it('reads a credential as fetch sends it, and never shows it when refusing it', () => {
    const advice = { mustBe: 'a string, e.g. ${env:KEY}', whenEmpty: 'set it' }
    expect(check.secret('apiKey', ` ${KEY}\n`, advice)).toBe(KEY)
    expect(refusal(() => check.secret('apiKey', 42, advice))).toBe('@rein/provider-x config: "apiKey" must be a string, e.g. ${env:KEY} (got a number)')
    expect(refusal(() => check.secret('apiKey', ' \n', advice))).toBe('@rein/provider-x config: "apiKey" is empty; set it')
    expect(refusal(() => check.secret('apiKey', `${KEY}\r\n`.repeat(2), advice))).not.toContain(KEY)
  })

  it('fills in the transport defaults and checks their ranges', () => {
    expect(check.transport({})).toEqual({ stream: true, maxRetries: 2, retryBaseDelayMs: 500, maxRetryDelayMs: 60_000, idleTimeoutMs: 120_000 })
    expect(check.transport({ stream: false, maxRetries: 0, retryBaseDelayMs: 1, maxRetryDelayMs: 2, idleTimeoutMs: 3 })).toEqual({ stream: false, maxRetries: 0, retryBaseDelayMs: 1, maxRetryDelayMs: 2, idleTimeoutMs: 3 })
    expect(refusal(() => check.transport({ maxRetries: 11 }))).toContain('"maxRetries" must be an integer from 0 to 10 (got 11)')
    expect(refusal(() => check.transport({ retryBaseDelayMs: -1 }))).toContain('"retryBaseDelayMs" must be a number of milliseconds from 0 to 2147483647 (got -1)')
  })

  it('checks the retry delays are no longer than a timer can wait', () => {
    for (const key of ['retryBaseDelayMs', 'maxRetryDelayMs']) {
      for (const bad of [2_147_483_648, 1e12, Number.POSITIVE_INFINITY]) {
        expect(refusal(() => check.transport({ [key]: bad }))).toBe(`@rein/provider-x config: "${key}" must be a number of milliseconds from 0 to 2147483647 (got ${check.describe(bad)})`)
      }
      expect(check.transport({ [key]: 2_147_483_647 })[key as 'maxRetryDelayMs']).toBe(2_147_483_647)
    }
  })

  it('checks idleTimeoutMs: at least 1 ms, and no longer than a timer can wait', () => {
    for (const bad of [0, -5, 2_147_483_648, '10']) {
      expect(refusal(() => check.transport({ idleTimeoutMs: bad }))).toBe(`@rein/provider-x config: "idleTimeoutMs" must be a number of milliseconds from 1 to 2147483647 (got ${check.describe(bad)})`)
    }
    expect(check.transport({ idleTimeoutMs: 2_147_483_647 }).idleTimeoutMs).toBe(2_147_483_647)
  })
})
