import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as guard from '../src/index.js'
import { compilePolicy, toolPolicyView, type PermissionGuardConfig, type RuleConfig, type ToolPolicyView } from '../src/index.js'
import { harness } from './helpers.js'

const view = (config: Partial<PermissionGuardConfig>) => toolPolicyView({ default: 'allow', rules: [], ...config })

describe('unconditionalDeny: denied whatever the arguments', () => {
  it('is the reason of the last rule without "when" when it is a deny', () => {
    const policy = view({ rules: [{ tool: 'rm*', action: 'deny' }, { tool: 'shutdown', action: 'deny', reason: 'never' }] })
    expect(policy.unconditionalDeny('rm')).toBe('tool "rm" is denied by rules[0] (tool "rm*")')
    expect(policy.unconditionalDeny('shutdown')).toBe('never')
    expect(policy.unconditionalDeny('read_file')).toBeUndefined()
  })

  it('is undefined when a later rule for the tool might allow or ask for some arguments', () => {
    const policy = view({ rules: [
      { tool: '*', action: 'deny' },
      { tool: 'bash', action: 'allow', when: { command: 'ls *' } },
      { tool: 'write_*', action: 'ask', when: { path: 'tmp/*' } },
      { tool: 'read_*', action: 'allow' },
    ] })
    expect(policy.unconditionalDeny('bash')).toBeUndefined()
    expect(policy.unconditionalDeny('write_file')).toBeUndefined()
    expect(policy.unconditionalDeny('read_file')).toBeUndefined()
    expect(policy.unconditionalDeny('rm')).toBe('tool "rm" is denied by rules[0] (tool "*")')
  })

  it('ignores a later deny with "when" (it denies too) and follows an earlier unconditional one', () => {
    const policy = view({ rules: [{ tool: 'bash', action: 'deny' }, { tool: 'bash', action: 'deny', when: { command: { shell: 'rm *' } } }] })
    expect(policy.unconditionalDeny('bash')).toBe('tool "bash" is denied by rules[0] (tool "bash")')
  })

  it('follows the default when no rule without "when" covers the tool', () => {
    expect(view({ default: 'deny' }).unconditionalDeny('x')).toBe('tool "x" is denied: no rule matches it and the default is deny')
    expect(view({ default: 'deny', rules: [{ tool: 'x', action: 'allow', when: { a: '1' } }] }).unconditionalDeny('x')).toBeUndefined()
    expect(view({ default: 'ask' }).unconditionalDeny('x')).toBeUndefined()
  })

  it('never says deny for a tool some call of which the policy does not deny (property)', () => {
    const tools = ['bash', 'read_file', 'write_file']
    const values = ['ls', 'rm -rf x', 'a/b', 'tmp/x', '']
    const rule: fc.Arbitrary<RuleConfig> = fc.record({
      tool: fc.constantFrom('*', 'bash', 'read_*', '*_file', 'write_file'),
      action: fc.constantFrom('allow', 'deny', 'ask'),
      when: fc.option(fc.dictionary(fc.constantFrom('command', 'path'),
        fc.oneof(fc.constantFrom('ls*', 'rm *', '*', 'tmp/*'), fc.constantFrom('rm *', 'ls').map((shell) => ({ shell }))),
        { minKeys: 1, maxKeys: 2 }), { nil: undefined }),
    }, { requiredKeys: ['tool', 'action'] })
    const config = fc.record({ default: fc.constantFrom('allow', 'deny', 'ask'), rules: fc.array(rule, { maxLength: 5 }) })
    const args = fc.record({ command: fc.constantFrom(...values), path: fc.constantFrom(...values) }, { requiredKeys: [] })
    fc.assert(fc.property(config, fc.constantFrom(...tools), fc.array(args, { minLength: 1, maxLength: 8 }), (written, name, calls) => {
      const policy = compilePolicy(written as PermissionGuardConfig)
      const denied = toolPolicyView(written as PermissionGuardConfig).unconditionalDeny(name)
      if (denied === undefined) return
      for (const call of calls) expect(policy(name, call).action).toBe('deny')
    }), { numRuns: 500 })
  })
})

describe('the toolPolicy service', () => {
  it('is provided by the plugin for hosts that read it by name, and goes with it', async () => {
    const h = await harness()
    const fork = h.ctx.plugin(guard, { rules: [{ tool: 'rm', action: 'deny', reason: 'no removing' }] })
    await h.ctx.start()
    const service = h.ctx.get('toolPolicy') as ToolPolicyView
    expect(service.unconditionalDeny('rm')).toBe('no removing')
    expect(service.unconditionalDeny('read_file')).toBeUndefined()
    fork.dispose()
    expect(h.ctx.get('toolPolicy')).toBeUndefined()
  })
})
