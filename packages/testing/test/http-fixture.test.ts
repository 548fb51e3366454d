/**
 * `startHttpFixture` records each request and answers it as told: a status, headers and a body
 * in pieces; silence; a cut connection; a body left open until `close()`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startHttpFixture, type HttpFixture } from '../src/index.js'

let fixture: HttpFixture | undefined
afterEach(async () => { await fixture?.close(); fixture = undefined })

const post = (path: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${fixture!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: JSON.stringify(body), signal })

describe('startHttpFixture', () => {
  it('records the request and sends the reply, its body in the pieces given', async () => {
    fixture = await startHttpFixture((_, index) => ({ status: 201, headers: { 'x-index': String(index) }, body: ['ab', Buffer.from('ç', 'utf8').subarray(0, 1), Buffer.from('ç', 'utf8').subarray(1), 'd'] }))
    const res = await post('/v1/x?y=1', { a: 1 })
    expect([res.status, res.headers.get('x-index'), await res.text()]).toEqual([201, '0', 'abçd'])
    expect(fixture.requests).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/x?y=1', body: { a: 1 } })])
    expect(fixture.requests[0]!.headers['x-test']).toBe('yes')
  })

  it('cuts the connection before answering', async () => {
    fixture = await startHttpFixture(() => ({ destroy: true }))
    await expect(post('/', {})).rejects.toThrow(/fetch failed/)
  })

  it('stays silent until the client gives up, and close() ends a body left open', async () => {
    fixture = await startHttpFixture((_, i) => (i === 0 ? { silent: true } : { body: 'start', then: 'hang' }))
    await expect(post('/', {}, AbortSignal.timeout(100))).rejects.toThrow()
    const res = await post('/', {})
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('start')
    const rest = reader.read()
    await fixture.close()
    fixture = undefined
    await expect(rest).rejects.toThrow()
  })
})
