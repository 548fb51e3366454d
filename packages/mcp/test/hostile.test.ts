import { TOOL_TIMEOUT } from '@rein/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_REQUEST_FAILED, MCP_TOOL_ERROR } from '../src/index.js'
import { LINE_CUT, MAX_STDERR_LINE } from '../src/transport.js'
import { call, code, gate, harness, rawServer, text, type Harness } from './helpers.js'

// A secret whose URL-encoded spelling differs from the raw one.
const SECRET = 'raw-secret/value+42'
const ENCODED = encodeURIComponent(SECRET)
const PASSWORD = 'arg-pass/word+42'
const hostile = `${'a'.repeat(40)}!`

let h: Harness
beforeAll(async () => {
  h = await harness({
    servers: {
      raw: rawServer('serve', { env: { RAW_SECRET: SECRET } }),
      // Progress comes every 20 ms and a plain call answers at once: 1.5 s between two messages
      // is room for a loaded machine; the cap at twice that shows progress kept the call going.
      capped: rawServer('serve', { timeoutMs: 3_000, maxTotalMs: 6_000 }),
      leaky: rawServer('leak-env', { env: { RAW_SECRET: SECRET } }),
      // A password on the command line, as `args: [..., '--pass', '${env:PASS}']` puts it there.
      argued: rawServer('leak-args', { args: [...rawServer('leak-args').args, '--pass', PASSWORD, `--token=${PASSWORD}`] }),
      flood: rawServer('flood'),
    },
  })
}, 30_000)
afterAll(() => h?.close(), 15_000)

describe('a hostile server over stdio', () => {
  it('loses its regular expressions before the kernel sees its schemas, so a hostile value is answered', async () => {
    expect(h.ctx.tools.get('raw__match')!.parameters).toEqual({
      type: 'object', properties: { s: { type: 'string' }, pattern: { type: 'string' } }, required: ['s'] })
    expect(h.ctx.tools.get('raw__named')!.parameters).toEqual({ type: 'object' })
    expect(h.ctx.tools.get('raw__shout')!.output?.schema).toEqual({
      type: 'object', properties: { s: { type: 'string' } }, required: ['s'] })

    const matched = await h.ctx.tools.execute(call('raw__match', { s: hostile, pattern: 'kept' }))
    expect(JSON.parse(text(matched))).toEqual({ s: hostile, pattern: 'kept' })
    const named = await h.ctx.tools.execute(call('raw__named', { [hostile]: 'x', aaa: 'y' }))
    expect(JSON.parse(text(named))).toEqual({ [hostile]: 'x', aaa: 'y' })
    const shouted = await h.ctx.tools.execute(call('raw__shout'))
    expect(shouted).toMatchObject({ isError: false, value: { s: hostile } })
  })

  it('loses a pattern reached through a $ref into a key no keyword names, in arguments and in results', async () => {
    // Followed, the pattern took ajv minutes on these 41 characters, the event loop blocked (no timeout could fire).
    const hidden = await h.ctx.tools.execute(call('raw__hidden', { s: hostile }))
    expect(hidden).toMatchObject({ isError: false, value: { s: hostile } })
  })

  it('ends a call that keeps reporting progress at maxTotalMs and cancels it on the server', async () => {
    const pid = h.pid('capped')
    const mark = h.events.length
    let reports = 0
    const result = await h.ctx.tools.execute(call('capped__progress'), { onProgress: () => { reports++ } })
    expect(code(result)).toBe(TOOL_TIMEOUT)
    expect(text(result)).toBe('Error: tool call timed out after 6000ms (the most one call may run, progress or not)')
    expect(reports).toBeGreaterThan(0)
    // The cancellation was written before this call, on the same pipe.
    expect(JSON.parse(text(await h.ctx.tools.execute(call('capped__cancelled'))))).toHaveLength(1)
    expect(h.pid('capped')).toBe(pid)
    expect(h.events.slice(mark).filter((e) => e.kind === 'closed')).toEqual([])
  })

  it('a malformed result is MCP_REQUEST_FAILED and leaves the calls in flight alone', async () => {
    const pid = h.pid('raw')
    const mark = h.events.length
    const arrived = gate()
    const holding = h.ctx.tools.execute(call('raw__hold'), { onProgress: () => arrived.open() })
    await arrived.promise
    const bad = await h.ctx.tools.execute(call('raw__malformed'))
    expect(code(bad)).toBe(MCP_REQUEST_FAILED)
    expect(text(bad)).toBe('Error: MCP server "raw" answered "malformed" with a malformed result')
    expect(code(await h.ctx.tools.execute(call('raw__release')))).toBe('OK')
    expect(text(await holding)).toBe('released')
    expect(h.pid('raw')).toBe(pid)
    expect(h.events.slice(mark).filter((e) => e.kind === 'closed')).toEqual([])
  })

  it('keeps the values of its env out of tool errors, logs and events', async () => {
    const leak = await h.ctx.tools.execute(call('raw__leak'))
    expect(code(leak)).toBe(MCP_TOOL_ERROR)
    expect(text(leak)).toBe('Error: denied for [REDACTED] ([REDACTED])')

    const failed = h.events.find((e) => e.kind === 'failed' && e.server === 'leaky')
    expect(failed).toMatchObject({ error: expect.stringContaining('stderr: config: [REDACTED] [REDACTED]') })
    const everything = JSON.stringify([h.events, h.warnings, h.logs])
    expect(everything).not.toContain(SECRET)
    expect(everything).not.toContain(ENCODED)
  })

  it('keeps the values of its args out of logs and events, but for flags and paths', () => {
    const failed = h.events.find((e) => e.kind === 'failed' && e.server === 'argued')
    expect(failed).toMatchObject({ error: expect.stringContaining(
      `stderr: bad option: --pass [REDACTED] --token=[REDACTED] (--pass%20[REDACTED]%20--token%3D[REDACTED])`) })
    const everything = JSON.stringify([h.events, h.warnings, h.logs])
    expect(everything).not.toContain(PASSWORD)
    expect(everything).not.toContain(encodeURIComponent(PASSWORD))
  })

  it('cuts a stderr line that never ends and keeps the lines after it', () => {
    // The lines hold no word of the server's args ("flood"): those are hidden as possible secrets.
    const lines = h.logs.filter((line) => line.startsWith('server "flood" stderr: '))
      .map((line) => line.slice('server "flood" stderr: '.length))
    expect(lines).toEqual([`${'E'.repeat(MAX_STDERR_LINE)}${LINE_CUT}`, 'after the long line', 'the last line'])
    const failed = h.events.find((e) => e.kind === 'failed' && e.server === 'flood')
    expect(failed).toMatchObject({ error: expect.stringContaining('after the long line | the last line') })
  })
})
