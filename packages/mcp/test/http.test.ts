import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_SERVER_UNAVAILABLE } from '../src/index.js'
import { REDACTED } from '@rein/redact'
import { startHttpServer, type HttpFixture } from './fixtures/http-server.js'
import { call, code, harness, text, type Harness } from './helpers.js'

// Tokens whose URL-encoded spelling differs from the raw one.
const LEAKED = 'MCP-SECRET/TOKEN+123456'
const VAULT = 'vault/token+abcdef'

let web: HttpFixture
let vault: HttpFixture
let h: Harness
beforeAll(async () => {
  web = await startHttpServer('s3cret')
  vault = await startHttpServer(VAULT)
  h = await harness({
    servers: {
      web: { url: web.url, headers: { Authorization: 'Bearer s3cret' } },
      locked: { url: web.url, headers: { Authorization: 'Bearer wrong' } },
      leaky: { url: web.url, headers: { Authorization: `Bearer ${LEAKED}` } },
      vault: { url: vault.url, headers: { Authorization: `Bearer ${VAULT}` } },
    },
  })
}, 30_000)
afterAll(async () => {
  await h?.close()
  await web?.close()
  await vault?.close()
}, 15_000)

/** Whether `text` holds `secret` raw or URL-encoded. */
function holds(text: string, secret: string): boolean {
  return text.includes(secret) || text.includes(encodeURIComponent(secret))
}

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

  it('a 401 that quotes the token never puts it in the warning, the event or the debug log', () => {
    const failed = h.events.find((e) => e.kind === 'failed' && e.server === 'leaky')
    expect(failed).toMatchObject({ error: expect.stringContaining(`"got":"${REDACTED}","encoded":"${REDACTED}"`) })
    expect(h.warnings.some((w) => w.includes('server "leaky" could not be started'))).toBe(true)
    expect(holds(JSON.stringify([h.events, h.warnings, h.logs]), LEAKED)).toBe(false)
  })

  it('a token refused during a call never reaches the tool error', async () => {
    expect(text(await h.ctx.tools.execute(call('vault__ping')))).toBe('pong')
    vault.setToken('rotated')
    const refused = await h.ctx.tools.execute(call('vault__ping'))
    expect(code(refused)).toBe(MCP_SERVER_UNAVAILABLE)
    expect(text(refused)).toContain(`HTTP 401 (check the credentials in this server's headers)`)
    expect(text(refused)).toContain(REDACTED)
    const restart = await h.ctx.tools.execute(call('vault__ping'))
    expect(text(restart)).toContain('could not be started')
    expect(text(restart)).toContain(REDACTED)
    expect(holds(JSON.stringify([refused, restart, h.events, h.warnings, h.logs]), VAULT)).toBe(false)
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
