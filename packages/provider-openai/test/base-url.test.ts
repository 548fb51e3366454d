import { describe, expect, it } from 'vitest'
import { readBaseURL } from '../src/base-url.js'

describe('readBaseURL', () => {
  it('appends /chat/completions to the path, without trailing slashes', () => {
    expect(readBaseURL('https://api.openai.com/v1/')).toEqual({
      kind: 'ok',
      url: { shown: 'https://api.openai.com/v1', endpoint: 'https://api.openai.com/v1/chat/completions', shownEndpoint: 'https://api.openai.com/v1/chat/completions', secrets: [] },
    })
    expect(readBaseURL('https://api.deepseek.com')).toMatchObject({ url: { endpoint: 'https://api.deepseek.com/chat/completions' } })
  })

  it('keeps the query on the endpoint and treats its values as secrets, except api-version', () => {
    const reading = readBaseURL('https://gw.test/openai?api-version=2024-06-01&key=a%2Bb+c&token')
    expect(reading).toEqual({
      kind: 'ok',
      url: {
        shown: 'https://gw.test/openai?api-version=2024-06-01&key=[REDACTED]&[REDACTED]',
        endpoint: 'https://gw.test/openai/chat/completions?api-version=2024-06-01&key=a%2Bb+c&token',
        shownEndpoint: 'https://gw.test/openai/chat/completions?api-version=2024-06-01&key=[REDACTED]&[REDACTED]',
        secrets: ['a%2Bb+c', 'a+b c', 'token', 'token'],
      },
    })
  })

  it.each([
    ['not a URL', 'api.deepseek.com', 'an http(s) URL'],
    ['another scheme', 'ftp://x', 'an http(s) URL'],
    ['a user name or password', 'https://me:pw@x/v1', 'without a user name or password'],
    ['a fragment', 'https://x/v1#a', 'without a fragment'],
    ['an empty fragment', 'https://x/v1#', 'without a fragment'],
  ])('refuses %s', (_, raw, must) => {
    const reading = readBaseURL(raw)
    expect(reading.kind === 'bad' && reading.must).toContain(must)
  })
})
