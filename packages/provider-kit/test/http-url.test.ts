/**
 * Every base URL is http(s), without credentials or a fragment, its root without trailing
 * slashes; a refused one is quoted without the parts that may hold a secret.
 */
import { describe, expect, it } from 'vitest'
import { quotableURL, readHttpURL } from '../src/http-url.js'

describe('readHttpURL', () => {
  it('gives the URL and its root: origin and path, trailing slashes dropped, query kept on the URL', () => {
    const reading = readHttpURL('https://gw.test/openai//?api-version=1')
    expect(reading).toMatchObject({ kind: 'ok', root: 'https://gw.test/openai' })
    expect(reading.kind === 'ok' && reading.url.search).toBe('?api-version=1')
    expect(readHttpURL('http://127.0.0.1:8080')).toMatchObject({ kind: 'ok', root: 'http://127.0.0.1:8080' })
  })

  it.each([
    ['not a URL', 'api.deepseek.com', 'not-http'],
    ['another scheme', 'ftp://x', 'not-http'],
    ['a user name or password', 'https://me:pw@x/v1', 'credentials'],
    ['a fragment', 'https://x/v1#a', 'fragment'],
    ['an empty fragment', 'https://x/v1#', 'fragment'],
  ])('refuses %s', (_, raw, problem) => {
    expect(readHttpURL(raw)).toEqual({ kind: 'bad', problem })
  })
})

describe('quotableURL', () => {
  it('cuts the query, the fragment and any user info before a refused URL is quoted', () => {
    expect(quotableURL('ftp://x/v1?key=secret#f')).toBe('ftp://x/v1?…')
    expect(quotableURL('https://me:pw@x/v1')).toBe('https://…@x/v1')
    expect(quotableURL('me:pw@x/v1?k=1')).toBe('…@x/v1?…')
    expect(quotableURL('api.deepseek.com')).toBe('api.deepseek.com')
  })
})
