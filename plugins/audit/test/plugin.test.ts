import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from 'cordis'
import {
  DEPENDENCY_FAILED, INVALID_ARGS, TOOL_DENIED, TOOL_FAILED, UNKNOWN_TOOL, defineTool, type ToolExecutionResult,
} from '@rein/kernel'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as audit from '../src/index.js'
import { codeOf, gate, kernelContext, readLines, registerTools, tempDir } from './helpers.js'

async function audited(config: Partial<audit.AuditInput> = {}) {
  const file = join(await tempDir(), 'audit.jsonl')
  const ctx = await kernelContext()
  registerTools(ctx)
  const fork = ctx.plugin(audit, { file, ...config })
  await ctx.start()
  let n = 0
  const call = (name: string, args: unknown = {}, options = {}) => ctx.tools.execute({ id: `c${++n}`, name, arguments: args }, options)
  return { ctx, file, fork, call }
}

/** Registers, innermost, a pre-execute handler that denies `name`. */
function denyTool(ctx: Context, name: string) {
  ctx.plugin({
    name: 'deny-some', inject: ['tools'],
    apply: (c: Context) => c.on('tools/pre-execute', async (exec, next) => exec.name === name ? { kind: 'deny', reason: `no ${name}` } : next()),
  })
}

afterEach(() => vi.useRealTimers())

describe('audit on a real kernel', () => {
  it('records both the original and the rewritten arguments of a call pre-execute rewrote', async () => {
    const { ctx, file, call } = await audited()
    ctx.plugin({
      name: 'rewrite', inject: ['tools'],
      apply: (c: Context) => c.on('tools/pre-execute', async () => ({ kind: 'allow', arguments: { text: 'safe' } })),
    })
    ctx.tools.register(defineTool({ name: 'say', description: 'x', parameters: { type: 'object' }, execute: (args: { text: string }) => args.text }))
    await ctx.start()
    await call('say', { text: 'token sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' })
    const [line] = await readLines(file)
    expect(line).toMatchObject({ arguments: { text: 'safe' }, originalArguments: { text: 'token [REDACTED]' }, decision: 'allow' })
  })

  it('writes one complete line per finished call', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.UTC(2030, 0, 1))
    const { ctx, file, call } = await audited()
    ctx.tools.register(defineTool({
      name: 'slow_echo', description: 'x', parameters: { type: 'object' },
      execute: (args: { text: string }) => { vi.setSystemTime(Date.UTC(2030, 0, 1) + 1234); return args.text },
    }))
    await call('slow_echo', { text: 'héllo' }, { turn: 2, index: 1, agent: 'main' })
    expect(await readLines(file)).toEqual([{
      ts: '2030-01-01T00:00:01.234Z', id: 'c1', name: 'slow_echo', turn: 2, index: 1, agent: 'main',
      arguments: { text: 'héllo' }, decision: 'allow', isError: false, durationMs: 1234,
      argBytes: Buffer.byteLength('{"text":"héllo"}'), resultBytes: Buffer.byteLength('héllo'),
    }])
  })

  it('writes lines in the order calls finish, with their codes and decisions', async () => {
    const { ctx, file, call } = await audited()
    denyTool(ctx, 'fail')
    const release = gate()
    ctx.tools.register(defineTool({ name: 'held', description: 'x', parameters: { type: 'object' }, execute: async () => { await release.promise; return 'late' } }))
    const held = call('held')
    await call('echo', { text: 'hi' })
    await call('nope')
    await call('strict', {})
    await call('fail')
    await ctx.tools.settle({ id: 'dep', name: 'echo', arguments: {} }, DEPENDENCY_FAILED, 'depends on c1, which failed: x')
    release.open()
    await held
    const lines = await readLines(file)
    expect(lines.map((l) => [l.id, l.isError, l.code ?? null, l.decision])).toEqual([
      ['c2', false, null, 'allow'],
      ['c3', true, UNKNOWN_TOOL, null],
      ['c4', true, INVALID_ARGS, null],
      ['c5', true, TOOL_DENIED, 'deny'],
      ['dep', true, DEPENDENCY_FAILED, null],
      ['c1', false, null, 'allow'],
    ])
  })

  it('has a call\'s line in the file by the time anyone sees its result, parallel calls included', async () => {
    const { file, call } = await audited()
    await call('echo', { text: 'one' })
    expect(readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['c1'])
    const results = await Promise.all([call('echo', { text: 'a' }), call('echo', { text: 'b' }), call('nope')])
    expect(results.map(codeOf)).toEqual([undefined, undefined, UNKNOWN_TOOL])
    expect(readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).id).sort()).toEqual(['c1', 'c2', 'c3', 'c4'])
  })

  it('records the decision the kernel acted on wherever it is listed, and joins no onion', async () => {
    const file = join(await tempDir(), 'audit.jsonl')
    const ctx = await kernelContext()
    registerTools(ctx)
    denyTool(ctx, 'fail') // listed before audit: outside it, were audit in the pre-execute onion
    ctx.plugin(audit, { file })
    await ctx.start()
    expect(ctx.tools.chain('tools/pre-execute')).toEqual(['deny-some'])
    expect(ctx.tools.chain('tools/result')).toEqual(['audit'])
    await ctx.tools.execute({ id: 'f', name: 'fail', arguments: {} })
    await ctx.tools.execute({ id: 'e', name: 'echo', arguments: {} })
    expect((await readLines(file)).map((l) => [l.id, l.decision])).toEqual([['f', 'deny'], ['e', 'allow']])
  })

  it('records a body failure with its code', async () => {
    const { file, call } = await audited()
    await call('fail')
    expect(await readLines(file)).toMatchObject([{ name: 'fail', isError: true, code: TOOL_FAILED, decision: 'allow' }])
  })

  it('copies attempts and cacheHit from the result meta', async () => {
    const { ctx, file, call } = await audited()
    ctx.plugin({
      name: 'meta-writer', inject: ['tools'],
      apply: (c: Context) => c.on('tools/execute', async (exec, next) => {
        exec.meta.attempts = 3
        exec.meta.cacheHit = false
        return next()
      }),
    })
    await ctx.start()
    await call('echo', { text: 'x' })
    expect(await readLines(file)).toMatchObject([{ attempts: 3, cacheHit: false }])
  })

  it('redacts every built-in secret and the configured patterns, but sizes the originals', async () => {
    const { file, call } = await audited({ redact: ['corp-[0-9a-f]{8}'] })
    const args = {
      openai: 'sk-AbCdEfGhIjKlMnOpQrStUv',
      header: 'Bearer abcdefgh12345678',
      aws: 'AKIAIOSFODNN7EXAMPLE',
      github: ['ghp_0123456789abcdefghijABCDEFGHIJ012345', 'gho_0123456789abcdefghijABCDEFGHIJ012345'],
      key: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----',
      text: 'id corp-deadbeef',
    }
    await call('echo', args)
    const [line] = await readLines(file)
    expect(line.arguments).toEqual({
      openai: '[REDACTED]',
      header: 'Bearer [REDACTED]',
      aws: '[REDACTED]',
      github: ['[REDACTED]', '[REDACTED]'],
      key: '[REDACTED]',
      text: 'id [REDACTED]',
    })
    expect(line.argBytes).toBe(Buffer.byteLength(JSON.stringify(args)))
  })

  it('redacts a Bearer token deep inside the arguments, in keys and values alike', async () => {
    const { file, call } = await audited()
    const token = 'Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.sig'
    await call('echo', {
      request: { url: 'https://api.example.test', headers: [{ name: 'Authorization', value: token }] },
      [`cached for ${token}`]: [[{ note: `retry with ${token} later` }]],
    })
    const [line] = await readLines(file)
    expect(line.arguments).toEqual({
      request: { url: 'https://api.example.test', headers: [{ name: 'Authorization', value: 'Bearer [REDACTED]' }] },
      'cached for Bearer [REDACTED]': [[{ note: 'retry with Bearer [REDACTED] later' }]],
    })
    expect(JSON.stringify(line)).not.toContain('eyJhbGciOiJIUzI1NiJ9')
  })

  it("never writes a failed result's text, so a secret in an error message stays out of the file", async () => {
    const { ctx, file, call } = await audited()
    ctx.tools.register(defineTool({
      name: 'leaky', description: 'x', parameters: { type: 'object' },
      execute: () => { throw new Error('upstream refused Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.sig') },
    }))
    const result = await call('leaky')
    expect(result.isError && result.error.message).toContain('eyJhbGciOiJIUzI1NiJ9')
    const text = await readFile(file, 'utf8')
    expect(JSON.parse(text)).toMatchObject({ name: 'leaky', isError: true, code: TOOL_FAILED })
    expect(text).not.toContain('eyJhbGciOiJIUzI1NiJ9')
    expect(text).not.toContain('upstream refused')
  })

  it('cuts long argument strings in the log only', async () => {
    const { file, call } = await audited({ maxStringLength: 5 })
    const result = await call('echo', { text: 'abcdefgh' })
    expect(result.isError === false && result.value).toBe('abcdefgh')
    expect((await readLines(file))[0].arguments).toEqual({ text: 'abcde…[3 more chars]' })
  })

  it('never changes a decision or a result', async () => {
    const run = async (withAudit: boolean) => {
      const ctx = await kernelContext()
      registerTools(ctx)
      if (withAudit) ctx.plugin(audit, { file: join(await tempDir(), 'a.jsonl') })
      denyTool(ctx, 'fail')
      await ctx.start()
      const results: ToolExecutionResult[] = []
      for (const [name, args] of [['echo', { text: 'sk-AbCdEfGhIjKlMnOpQrStUv' }], ['fail', {}], ['strict', {}], ['nope', {}]] as const) {
        results.push(await ctx.tools.execute({ id: name, name, arguments: args }))
      }
      return results
    }
    const [plain, withAudit] = [await run(false), await run(true)]
    expect(withAudit).toEqual(plain)
    expect(codeOf(withAudit[1])).toBe(TOOL_DENIED)
    expect(withAudit[0]).toMatchObject({ isError: false, value: 'sk-AbCdEfGhIjKlMnOpQrStUv' })
  })
})
