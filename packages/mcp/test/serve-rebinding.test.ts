/**
 * DNS rebinding protection of `rein mcp serve --http`: every request's Host must name this
 * server, and an Origin, when sent, must be an http(s) origin of such a host (or one allowed
 * explicitly); a non-loopback address is served only when allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isLoopback, requestCheck, serveHttp } from '../src/serve/index.js'
import { bare, INITIALIZE, raw, type Bare } from './serve-helpers.js'

let s: Bare
let extra: Bare
beforeAll(async () => {
  s = await bare()
  extra = await bare({ allowedHosts: ['rein.test', '[fd00::1]:8443'], allowedOrigins: ['http://localhost:5173'] })
}, 30_000)
afterAll(async () => { await s?.close(); await extra?.close() }, 15_000)

/** The status of an initialize sent with `headers` to `server`, and the error message when refused. */
async function initialize(server: Bare, headers: Record<string, string>) {
  const answer = await raw(server.port, { headers, body: INITIALIZE })
  if (answer.status === 200) return { status: 200, sessionId: answer.headers['mcp-session-id'] }
  const body = JSON.parse(answer.body) as { jsonrpc: string, error: { code: number, message: string }, id: null }
  return { status: answer.status, jsonrpc: body.jsonrpc, message: body.error.message }
}

describe('the Host header', () => {
  it('is answered when it names a loopback address or localhost with the server\'s port', async () => {
    // IPv6 as a browser sends it (canonical); the HTTP layer under the transport refuses other spellings.
    for (const host of ['127.0.0.1', 'localhost', 'LOCALHOST', '127.0.0.2', '127.255.0.9', '[::1]', '[::ffff:7f00:1]']) {
      expect(await initialize(s, { host: `${host}:${s.port}` }), host).toMatchObject({ status: 200, sessionId: expect.any(String) })
    }
  })

  it('is refused (403, a JSON-RPC error) when it names another host, or another port', async () => {
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1', '[::2]']) {
      expect(await initialize(s, { host: `${host}:${s.port}` }), host).toMatchObject({
        status: 403, jsonrpc: '2.0', message: expect.stringMatching(/^Host header ".*" is not one this server answers to \(DNS rebinding protection\)/) })
    }
    for (const host of [`localhost:${s.port + 1}`, '127.0.0.1', 'user@127.0.0.1', `127.0.0.1:${s.port}/x`]) {
      expect((await initialize(s, { host })).status, host).toBe(403)
    }
  })

  it('is answered for the hosts allowed explicitly, with any port unless one is named', async () => {
    expect((await initialize(extra, { host: `rein.test:${extra.port}` })).status).toBe(200)
    expect((await initialize(extra, { host: 'rein.test' })).status).toBe(200)
    expect((await initialize(extra, { host: '[fd00::1]:8443' })).status).toBe(200)
    expect((await initialize(extra, { host: `[fd00::1]:${extra.port}` })).status).toBe(403)
    expect((await initialize(s, { host: `rein.test:${s.port}` })).status).toBe(403)
  })
})

describe('the Origin header', () => {
  const host = () => ({ host: `127.0.0.1:${s.port}` })

  it('is refused (403, a JSON-RPC error) when it is not an origin of this server', async () => {
    for (const origin of ['https://evil.example', `http://evil.example:${s.port}`, `http://localhost:${s.port + 1}`, 'http://localhost', 'null', `file://localhost:${s.port}`, 'not a url']) {
      expect(await initialize(s, { ...host(), origin }), origin).toMatchObject({
        status: 403, jsonrpc: '2.0', message: expect.stringMatching(/^Origin ".*" is not allowed \(DNS rebinding protection\)/) })
    }
  })

  it('is accepted when it is an http(s) origin of an allowed host with the server\'s port, or absent', async () => {
    for (const origin of [`http://127.0.0.1:${s.port}`, `http://localhost:${s.port}`, `https://localhost:${s.port}`, `http://[::1]:${s.port}`]) {
      expect((await initialize(s, { ...host(), origin })).status, origin).toBe(200)
    }
    expect((await initialize(s, host())).status).toBe(200)
  })

  it('is accepted when allowed explicitly, or when it is an origin of a host allowed explicitly', async () => {
    const at = { host: `127.0.0.1:${extra.port}` }
    expect((await initialize(extra, { ...at, origin: 'http://localhost:5173' })).status).toBe(200)
    expect((await initialize(extra, { ...at, origin: 'https://rein.test' })).status).toBe(200)
    expect((await initialize(extra, { ...at, origin: 'http://localhost:5174' })).status).toBe(403)
    expect((await initialize(s, { host: `127.0.0.1:${s.port}`, origin: 'http://localhost:5173' })).status).toBe(403)
  })

  it('is checked on every request of a session too, not only on initialize', async () => {
    const id = (await initialize(s, host())).sessionId as string
    const answer = await raw(s.port, {
      headers: { ...host(), origin: 'https://evil.example', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } })
    expect(answer.status).toBe(403)
    expect((await raw(s.port, { headers: { host: 'evil.example' }, path: '/elsewhere' })).status).toBe(403)
  })
})

describe('the address served on', () => {
  it('is refused when it is not loopback, unless allowed', async () => {
    await expect(serveHttp(s.ctx, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/0\.0\.0\.0 is not a loopback address, and the server has no authentication.*allowRemote/)
    await expect(serveHttp(s.ctx, { host: '::', port: 0 })).rejects.toThrow(/not a loopback address/)
  })

  it('refuses entries of allowedHosts and allowedOrigins that are not of their form, before listening', async () => {
    await expect(serveHttp(s.ctx, { host: '127.0.0.1', port: 0 }, { allowedHosts: ['http://x'] })).rejects.toThrow(/allowed host "http:\/\/x"/)
    await expect(serveHttp(s.ctx, { host: '127.0.0.1', port: 0 }, { allowedOrigins: ['localhost:5173'] })).rejects.toThrow(/allowed origin "localhost:5173"/)
    await expect(serveHttp(s.ctx, { host: '127.0.0.1', port: 0 }, { allowedOrigins: ['http://x/path'] })).rejects.toThrow(/allowed origin/)
  })

  it('counts 127.0.0.0/8, ::1 and IPv4-mapped 127.x as loopback, and nothing else', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) expect(isLoopback(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.com', '128.0.0.1', 'fe80::1%lo']) expect(isLoopback(host), host).toBe(false)
  })

  it('checks Host against loopback and the bound address whatever the bind (0.0.0.0, 127.0.0.2, ::ffff:127.0.0.1, a LAN address)', () => {
    const evil = 'Host header "evil.example:4000" is not one this server answers to (DNS rebinding protection); to answer it, allow it (rein mcp serve --allow-host <host>)'
    for (const bound of ['0.0.0.0', '::', '127.0.0.2', '::ffff:127.0.0.1', '192.168.1.5']) {
      const check = requestCheck(bound, 4000)
      expect(check('evil.example:4000', undefined), bound).toBe(evil)
      expect(check('localhost:4000', undefined), bound).toBeUndefined()
      expect(check('127.0.0.1:4000', 'https://evil.example'), bound).toMatch(/^Origin "https:\/\/evil.example" is not allowed/)
      expect(check(undefined, undefined), bound).toMatch(/^Host header "" is not one/)
    }
    expect(requestCheck('192.168.1.5', 4000)('192.168.1.5:4000', 'http://192.168.1.5:4000')).toBeUndefined()
    expect(requestCheck('192.168.1.5', 4000)('192.168.1.6:4000', undefined)).toMatch(/^Host header/)
    expect(requestCheck('0.0.0.0', 4000)('0.0.0.0:4000', undefined)).toMatch(/^Host header/)
    expect(requestCheck('::ffff:127.0.0.1', 4000)('[::ffff:7f00:1]:4000', undefined)).toBeUndefined()
    expect(requestCheck('127.0.0.1', 4000)('[::ffff:127.0.0.1]:4000', 'http://[0:0:0:0:0:0:0:1]:4000')).toBeUndefined()
  })
})
