import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_SERVER_UNAVAILABLE } from '../src/index.js'
import { startHttpServer, type HttpFixture } from './fixtures/http-server.js'
import { call, code, harness, text, type Harness } from './helpers.js'

let web: HttpFixture
let h: Harness
beforeAll(async () => {
  web = await startHttpServer('s3cret')
  h = await harness({
    servers: {
      web: { url: web.url, headers: { Authorization: 'Bearer s3cret' } },
      locked: { url: web.url, headers: { Authorization: 'Bearer wrong' } },
    },
  })
}, 30_000)
afterAll(async () => {
  await h?.close()
  await web?.close()
}, 15_000)

describe('a streamable HTTP server', () => {
  it('connects with the configured headers and calls a tool', async () => {
    expect(h.ctx.tools.get('web__ping')).toBeDefined()
    const result = await h.ctx.tools.execute(call('web__ping'))
    expect(text(result)).toBe('pong')
    expect(h.ctx.tools.executionMode(call('web__ping'))).toBe('parallel')
  })

  it('a server that refuses the start is warned about and left out; the others work', () => {
    expect(h.events).toContainEqual(expect.objectContaining({ kind: 'failed', server: 'locked' }))
    expect(h.warnings.some((w) => w.includes('server "locked" could not be started') && w.includes('HTTP 401 (check the credentials'))).toBe(true)
    expect(h.ctx.tools.specs().map((s) => s.name).filter((n) => n.startsWith('locked__'))).toEqual([])
  })

  it('an endpoint that went down fails with MCP_SERVER_UNAVAILABLE, and the next call after it is back reconnects', async () => {
    const { port } = web
    await web.close()
    const down = await h.ctx.tools.execute(call('web__ping'))
    expect(code(down)).toBe(MCP_SERVER_UNAVAILABLE)
    expect(text(down)).toContain('MCP server "web" is unavailable')
    const still = await h.ctx.tools.execute(call('web__ping'))
    expect(code(still)).toBe(MCP_SERVER_UNAVAILABLE)
    expect(text(still)).toContain('could not be started')

    web = await startHttpServer('s3cret', port)
    const mark = h.events.length
    expect(text(await h.ctx.tools.execute(call('web__ping')))).toBe('pong')
    await h.until((e) => e.kind === 'connected' && e.server === 'web', mark)
  })
})
