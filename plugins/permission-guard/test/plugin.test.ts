import type { Context } from 'cordis'
import { defineTool, TOOL_DENIED } from '@rein/kernel'
import { captureWarnings } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as guard from '../src/index.js'
import type { PermissionGuardInput } from '../src/index.js'
import { harness, messageOf, outcome } from './helpers.js'

async function guarded(config: PermissionGuardInput) {
  const h = await harness()
  const fork = h.ctx.plugin(guard, config)
  await h.ctx.start()
  return { ...h, fork }
}

describe('permission-guard on a real kernel', () => {
  it('lets the last matching rule win', async () => {
    const { call, ran } = await guarded({ rules: [{ tool: '*', action: 'deny' }, { tool: 'read_*', action: 'allow' }] })
    expect(outcome(await call('read_file'))).toBe('ok')
    const denied = await call('write_file')
    expect(outcome(denied)).toBe(TOOL_DENIED)
    expect(messageOf(denied)).toBe('tool "write_file" is denied by rules[0] (tool "*")')
    expect(ran).toEqual(['read_file'])
  })

  it('shows the rule reason to the model when it has one', async () => {
    const { call } = await guarded({ rules: [{ tool: 'bash', action: 'deny', reason: 'no shell here', when: { command: 'rm *' } }] })
    const denied = await call('bash', { command: 'rm -rf /tmp/../etc' })
    expect(denied.content[0]).toEqual({ type: 'text', text: 'Error: no shell here' })
    expect(outcome(await call('bash', { command: 'ls' }))).toBe('ok')
  })

  it('denies by default when configured so, and the default deny is final too', async () => {
    const { ctx, call } = await guarded({ default: 'deny', rules: [{ tool: 'read_*', action: 'allow' }] })
    ctx.plugin({ name: 'lenient', inject: ['tools'], apply: (c: Context) => c.on('tools/pre-execute', async () => ({ kind: 'allow' }), { prepend: true }) })
    await ctx.start()
    expect(messageOf(await call('bash'))).toBe('tool "bash" is denied: no rule matches it and the default is deny')
    expect(outcome(await call('read_file'))).toBe('ok')
  })

  it('keeps a deny when a plugin registered later answers allow from outside', async () => {
    const { ctx, call, ran } = await guarded({ rules: [{ tool: 'rm', action: 'deny' }] })
    // Registered after the guard but prepended: it is the outermost handler and ignores the inner deny.
    ctx.plugin({ name: 'overrider', inject: ['tools'], apply: (c: Context) => c.on('tools/pre-execute', async () => ({ kind: 'allow' }), { prepend: true }) })
    // Registered after the guard, innermost: it would allow anything that reaches it.
    ctx.plugin({ name: 'inner-allow', inject: ['tools'], apply: (c: Context) => c.on('tools/pre-execute', async () => ({ kind: 'allow' })) })
    await ctx.start()
    expect(ctx.tools.chain('tools/pre-execute')).toEqual(['overrider', 'permission-guard', 'inner-allow'])
    expect(ctx.tools.chain('guards')).toEqual(['permission-guard'])
    const result = await call('rm', { path: 'x' })
    expect(outcome(result)).toBe(TOOL_DENIED)
    expect(messageOf(result)).toBe('tool "rm" is denied by rules[0] (tool "rm")')
    expect(ran).toEqual([])
  })

  it('keeps "[deny *, allow read_*]" allowing read_x through the guard', async () => {
    const { call, ran } = await guarded({ rules: [{ tool: '*', action: 'deny' }, { tool: 'read_*', action: 'allow' }] })
    expect(outcome(await call('read_file'))).toBe('ok')
    expect(ran).toEqual(['read_file'])
  })

  it('lets an inner plugin still deny what the rules allow', async () => {
    const { ctx, call } = await guarded({ rules: [{ tool: '*', action: 'allow' }] })
    ctx.plugin({ name: 'strict', inject: ['tools'], apply: (c: Context) => c.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'strict says no' })) })
    await ctx.start()
    expect(messageOf(await call('read_file'))).toBe('strict says no')
  })

  it('lets an inner deny win over an ask, without asking anyone', async () => {
    const asked: string[] = []
    const h = await harness()
    h.ctx.plugin(guard.createPermissionGuard({ ask: ({ exec }) => { asked.push(exec.id); return 'allow-once' } }), { default: 'ask' })
    h.ctx.plugin({ name: 'strict', inject: ['tools'], apply: (c: Context) => c.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'strict says no' })) })
    await h.ctx.start()
    expect(messageOf(await h.call('bash'))).toBe('strict says no')
    expect(asked).toEqual([])
  })

  it('removes its handler, guard and approval service when disposed', async () => {
    const { ctx, call, fork } = await guarded({ rules: [{ tool: 'rm', action: 'deny' }] })
    expect(ctx.get('approval')).toBeDefined()
    fork.dispose()
    expect(ctx.tools.chain('tools/pre-execute')).toEqual([])
    expect(ctx.tools.chain('guards')).toEqual([])
    expect(ctx.get('approval')).toBeUndefined()
    expect(outcome(await call('rm'))).toBe('ok')
  })
})

describe('rules naming an argument the tool does not have', () => {
  it('are reported for the tools registered before the plugin, and for a later tool at its first call', async () => {
    const { ctx, call } = await harness()
    const log = captureWarnings('permission-guard', ctx)
    try {
      ctx.tools.register(defineTool({
        name: 'sh', description: 'sh', execute: () => 'ok',
        parameters: { type: 'object', properties: { command: { type: 'string' }, cwd: { type: 'string' } } },
      }))
      ctx.plugin(guard, { rules: [
        { tool: 'sh', action: 'deny', when: { cmd: { shell: 'rm *' } } },
        { tool: '*', action: 'ask', when: { command: 'x', path: 'y' } },
        { tool: 'read_file', action: 'allow' },
      ] })
      await ctx.start()
      expect(log.warnings).toEqual([
        'rules[0] (tool "sh", cmd shell "rm *") names the argument "cmd", which tool "sh" does not have (its arguments: "command", "cwd"), so the rule never matches a call that follows the tool\'s schema',
        'rules[1] (tool "*", command "x", path "y") names the argument "path", which tool "sh" does not have (its arguments: "command", "cwd"), so the rule never matches a call that follows the tool\'s schema',
      ])
      ctx.tools.register(defineTool({
        name: 'edit', description: 'edit', execute: () => 'ok',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      }))
      expect(outcome(await call('edit', { path: 'a' }))).toBe('ok')
      expect(outcome(await call('edit', { path: 'b' }))).toBe('ok')
      expect(log.warnings.slice(2)).toEqual([
        'rules[1] (tool "*", command "x", path "y") names the argument "command", which tool "edit" does not have (its arguments: "path"), so the rule never matches a call that follows the tool\'s schema',
      ])
    } finally {
      log.stop()
    }
  })
})
