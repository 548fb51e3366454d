import { describe, expect, it } from 'vitest'
import { Config, McpConfigError } from '../src/index.js'
import { checkConfig } from '../src/config.js'

describe('Config', () => {
  it('accepts stdio and HTTP servers, and no servers at all', () => {
    expect(Config({} as never)).toEqual({ servers: {} })
    const config = Config({ servers: {
      fs: { command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, cwd: '/tmp', timeoutMs: 5000 },
      web: { url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer x' } },
    } })
    expect(config.servers.fs).toMatchObject({ command: 'npx', args: ['-y', 'pkg'], timeoutMs: 5000 })
    expect(config.servers.web).toMatchObject({ url: 'http://127.0.0.1:3001/mcp' })
  })

  it('refuses an entry that is neither, and a bad timeout', () => {
    expect(() => Config({ servers: { x: { cmd: 'npx' } } } as never)).toThrow(/servers\.x/)
    expect(() => Config({ servers: { x: { command: 'npx', timeoutMs: 0 } } })).toThrow(/servers\.x/)
  })
})

describe('checkConfig', () => {
  it('refuses server names that would make <server>__<tool> ambiguous, naming the entry', () => {
    for (const name of ['a__b', '_a', 'a_', 'has space', 'x'.repeat(41)]) {
      expect(() => checkConfig({ servers: { [name]: { command: 'x' } } })).toThrow(McpConfigError)
    }
    expect(() => checkConfig({ servers: { a__b: { command: 'x' } } })).toThrow('@rein/mcp: servers.a__b: a server name')
    expect(() => checkConfig({ servers: { 'my_server-2': { command: 'x' } } })).not.toThrow()
  })

  it('refuses an empty command and a URL that is not http(s)', () => {
    expect(() => checkConfig({ servers: { a: { command: ' ' } } })).toThrow('command must not be empty')
    expect(() => checkConfig({ servers: { a: { url: 'not a url' } } })).toThrow('is not a valid URL')
    expect(() => checkConfig({ servers: { a: { url: 'ftp://host/x' } } })).toThrow('must be http: or https:')
  })

  it('never prints a configured header value or URL credentials in a config error', () => {
    const key = 'mcp-key-0123456789'
    const bad = { url: `not a url ${key} https://admin:pw-secret@host`, headers: { Authorization: `Bearer ${key}` } }
    expect(() => checkConfig({ servers: { a: bad } })).toThrow('url "not a url [REDACTED] https://[REDACTED]@host" is not a valid URL')
  })
})
