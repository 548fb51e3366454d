import { describe, expect, it } from 'vitest'
import { argSecrets, serverRedactor } from '../src/secrets.js'

describe('argSecrets', () => {
  it('takes every value but flags and paths', () => {
    expect(argSecrets(['-e', '--pass', 'hunter2-pw', '--', '/srv/work', './server.js', '../up', '~/x', 'C:\\srv', 'serve'])).toEqual(['hunter2-pw', 'serve'])
  })

  it('judges the value of --name=value alone, and takes a value glued to a short flag whole and alone', () => {
    expect(argSecrets(['--token=abc12345', '--config=./rein.json', '-token=xyz98765', '-phunter2'])).toEqual(['abc12345', 'xyz98765', '-phunter2', 'hunter2'])
  })

  it('takes only the long words of an argument with spaces: a script or a header line, not prose', () => {
    expect(argSecrets(['process.stderr.write("boom: missing setting"); exit()', 'Authorization: Bearer tok-12345678']))
      .toEqual(['process.stderr.write("boom:', 'setting");', 'Authorization:', 'tok-12345678'])
  })
})

describe('serverRedactor', () => {
  it('hides the values of args (4 characters or more), not the flags, paths or short values around them', () => {
    const redact = serverRedactor({ command: 'node', args: ['/srv/server.js', '--pass', 'hunter2-pw', '--port', '80', '--key=s3cr3t-k'] })
    expect(redact('bad option: --pass hunter2-pw --port 80 --key=s3cr3t-k in /srv/server.js'))
      .toBe('bad option: --pass [REDACTED] --port 80 --key=[REDACTED] in /srv/server.js')
  })

  it('still hides the values of headers and env', () => {
    expect(serverRedactor({ url: 'http://x/mcp', headers: { Authorization: 'token abcd1234' } })('got token abcd1234')).toBe('got [REDACTED]')
    expect(serverRedactor({ command: 'node', env: { PASS: 'hunter2-pw' } })('PASS=hunter2-pw')).toBe('PASS=[REDACTED]')
  })
})
