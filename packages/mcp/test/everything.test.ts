import { ABORTED, TOOL_DENIED, TOOL_TIMEOUT, INVALID_ARGS, type ProgressInfo } from '@rein/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_SERVER_UNAVAILABLE, MCP_TOOL_ERROR } from '../src/index.js'
import { alive, call, code, gate, harness, referenceServer, text, type Harness } from './helpers.js'

// One harness for the file: the everything server, and a second copy with a 1 s request timeout.
let h: Harness
beforeAll(async () => {
  h = await harness({
    servers: {
      everything: referenceServer('everything', ['stdio']),
      slow: referenceServer('everything', ['stdio'], { timeoutMs: 2000 }),
    },
  })
}, 30_000)
afterAll(() => h?.close(), 15_000)

/** Runs the long-running tool until its first progress report, then calls `then`. */
async function longRun(server: string, then: () => void, signal?: AbortSignal) {
  const first = gate()
  const pending = h.ctx.tools.execute(call(`${server}__trigger-long-running-operation`, { duration: 30, steps: 300 }), {
    signal,
    onProgress: () => first.open(),
  })
  await first.promise
  then()
  return pending
}

describe('the everything server over stdio', () => {
  it('registers its tools as <server>__<tool> with the MCP schemas and description', () => {
    const names = h.ctx.tools.specs().map((spec) => spec.name)
    expect(names).toEqual(expect.arrayContaining([
      'everything__echo', 'everything__get-sum', 'everything__get-structured-content', 'slow__echo']))
    // A tool that needs the experimental task API cannot be called with tools/call: left out.
    expect(names).not.toContain('everything__simulate-research-query')
    const echo = h.ctx.tools.get('everything__echo')!
    expect(echo.description).toBe('Echoes back the input string')
    expect(echo.parameters).toMatchObject({ type: 'object', required: ['message'] })
    expect(h.ctx.tools.get('everything__get-structured-content')!.output?.schema).toMatchObject({
      type: 'object', required: ['temperature', 'conditions', 'humidity'] })
    expect(h.ctx.tools.get('slow__echo')!.timeoutMs).toBe(2000)
    expect(h.ctx.tools.get('everything__echo')!.timeoutMs).toBeUndefined()
  })

  it('maps readOnlyHint to concurrency-safe and idempotent, anything else to exclusive', () => {
    expect(h.ctx.tools.executionMode(call('everything__echo', { message: 'x' }))).toBe('parallel')
    expect(h.ctx.tools.get('everything__echo')!.idempotent).toBe(true)
    expect(h.ctx.tools.executionMode(call('everything__toggle-simulated-logging'))).toBe('exclusive')
    expect(h.ctx.tools.get('everything__toggle-simulated-logging')!.idempotent).toBeUndefined()
  })

  it('calls a tool and returns its content blocks as the value', async () => {
    const echo = await h.ctx.tools.execute(call('everything__echo', { message: 'hello' }))
    expect(echo).toMatchObject({ isError: false, value: [{ type: 'text', text: 'Echo: hello' }] })
    expect(text(echo)).toBe('Echo: hello')
    const sum = await h.ctx.tools.execute(call('everything__get-sum', { a: 2, b: 3 }))
    expect(text(sum)).toBe('The sum of 2 and 3 is 5.')
  })

  it('keeps image blocks as images', async () => {
    const result = await h.ctx.tools.execute(call('everything__get-tiny-image'))
    expect(result.content.map((block) => block.type)).toEqual(['text', 'image', 'text'])
    expect(result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' })
  })

  it('returns structured content as the value, validated against the output schema', async () => {
    const result = await h.ctx.tools.execute(call('everything__get-structured-content', { location: 'Chicago' }))
    expect(result).toMatchObject({ isError: false, value: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 } })
    expect(JSON.parse(text(result))).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 })
    // The MCP input schema is enforced by the kernel before the server is asked.
    const bad = await h.ctx.tools.execute(call('everything__get-structured-content', { location: 'Paris' }))
    expect(code(bad)).toBe(INVALID_ARGS)
  })

  it('turns an isError result into MCP_TOOL_ERROR with the tool text', async () => {
    const result = await h.ctx.tools.execute(call('everything__gzip-file-as-resource', { data: 'ftp://example.com/x' }))
    expect(code(result)).toBe(MCP_TOOL_ERROR)
    expect(text(result)).toMatch(/^Error: .*Unsupported URL protocol for ftp:\/\/example\.com\/x/)
  })

  it('forwards progress notifications to exec.progress', async () => {
    const reports: (ProgressInfo | undefined)[] = []
    const result = await h.ctx.tools.execute(call('everything__trigger-long-running-operation', { duration: 0.6, steps: 3 }),
      { onProgress: (info) => reports.push(info) })
    expect(code(result)).toBe('OK')
    // The SDK dispatches notifications a microtask late, so the last one may lose the race with the result.
    expect(reports.length).toBeGreaterThanOrEqual(1)
    expect(reports).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { progress: 3, total: 3 }].slice(0, reports.length))
  })

  it('an abort cancels the MCP request; the server stays up', async () => {
    const pid = h.pid('everything')
    const controller = new AbortController()
    const result = await longRun('everything', () => controller.abort(), controller.signal)
    expect(code(result)).toBe(ABORTED)
    expect(code(await h.ctx.tools.execute(call('everything__echo', { message: 'still here' })))).toBe('OK')
    expect(h.pid('everything')).toBe(pid)
  })

  it('a deadline signal ends a running call with an error; the server stays up', async () => {
    const pid = h.pid('everything')
    const result = await h.ctx.tools.execute(call('everything__trigger-long-running-operation', { duration: 30, steps: 3 }),
      { signal: AbortSignal.timeout(200) })
    expect(result.isError).toBe(true)
    expect(code(result)).toBe(ABORTED)
    expect(code(await h.ctx.tools.execute(call('everything__echo', { message: 'x' })))).toBe('OK')
    expect(h.pid('everything')).toBe(pid)
    expect(h.events.filter((e) => e.kind === 'closed' && e.server === 'everything')).toEqual([])
  })

  it('the server timeoutMs is reset by progress and otherwise ends the call with TOOL_TIMEOUT', async () => {
    // 60 steps of 100 ms: 6 s in all, but never 2 s without progress (room for a stalled process).
    const steady = await h.ctx.tools.execute(call('slow__trigger-long-running-operation', { duration: 6, steps: 60 }))
    expect(code(steady)).toBe('OK')
    const silent = await h.ctx.tools.execute(call('slow__trigger-long-running-operation', { duration: 10, steps: 1 }))
    expect(code(silent)).toBe(TOOL_TIMEOUT)
    expect(text(silent)).toBe('Error: tool call timed out after 2000ms')
    expect(code(await h.ctx.tools.execute(call('slow__echo', { message: 'x' })))).toBe('OK')
  })

  it('a guard denies one MCP tool and leaves the others alone', async () => {
    const off = h.ctx.tools.guard((exec) => exec.name === 'everything__get-env' ? 'the environment is private' : undefined)
    try {
      const denied = await h.ctx.tools.execute(call('everything__get-env'))
      expect(code(denied)).toBe(TOOL_DENIED)
      expect(text(denied)).toBe('Error: the environment is private')
      expect(code(await h.ctx.tools.execute(call('everything__echo', { message: 'x' })))).toBe('OK')
    } finally {
      off()
    }
  })

  it('a server killed mid-call fails that call with MCP_SERVER_UNAVAILABLE and is restarted on next use', async () => {
    const pid = h.pid('everything')
    const mark = h.events.length
    const result = await longRun('everything', () => process.kill(pid, 'SIGKILL'))
    expect(code(result)).toBe(MCP_SERVER_UNAVAILABLE)
    expect(text(result)).toMatch(/MCP server "everything" is unavailable .*restarted on the next call/)
    await h.until((e) => e.kind === 'closed' && e.server === 'everything', mark)
    expect(alive(pid)).toBe(false)

    const again = await h.ctx.tools.execute(call('everything__echo', { message: 'back' }))
    expect(text(again)).toBe('Echo: back')
    const connected = await h.until((e) => e.kind === 'connected' && e.server === 'everything', mark)
    expect(connected).toMatchObject({ tools: expect.arrayContaining(['everything__echo']) })
    expect(h.pid('everything')).not.toBe(pid)
    expect(h.warnings.some((w) => w.includes('"everything" went away'))).toBe(true)
  })
})
