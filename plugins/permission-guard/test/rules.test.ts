import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePolicy, PolicyError, type PermissionGuardConfig } from '../src/rules.js'

const policy = (config: Partial<PermissionGuardConfig>) => compilePolicy({ default: 'allow', rules: [], ...config })

describe('compilePolicy', () => {
  it('lets the last matching rule win', () => {
    const decide = policy({ rules: [{ tool: '*', action: 'deny' }, { tool: 'read_*', action: 'allow' }] })
    expect(decide('read_file', {})).toEqual({ action: 'allow', rule: 1 })
    expect(decide('write_file', {})).toMatchObject({ action: 'deny', rule: 0 })
    const reversed = policy({ rules: [{ tool: 'read_*', action: 'allow' }, { tool: '*', action: 'deny' }] })
    expect(reversed('read_file', {})).toMatchObject({ action: 'deny', rule: 1 })
  })

  it('applies the default when no rule matches', () => {
    expect(policy({})('x', {})).toEqual({ action: 'allow' })
    expect(policy({ default: 'deny' })('x', {})).toEqual({
      action: 'deny', reason: 'tool "x" is denied: no rule matches it and the default is deny',
    })
    expect(policy({ default: 'ask' })('x', {})).toEqual({
      action: 'ask', reason: 'no rule matches tool "x" and the default is ask',
    })
  })

  it('names the deciding rule in a deny, or uses its own reason', () => {
    const decide = policy({
      rules: [
        { tool: 'bash', action: 'deny', when: { command: 'rm *' } },
        { tool: 'write_*', action: 'deny', reason: 'this agent is read-only' },
        { tool: 'edit_*', action: 'ask' },
      ],
    })
    expect(decide('bash', { command: 'rm -rf /' })).toMatchObject({
      reason: 'tool "bash" is denied by rules[0] (tool "bash", command "rm *")',
    })
    expect(decide('write_file', {})).toMatchObject({ reason: 'this agent is read-only' })
    expect(decide('edit_file', {})).toMatchObject({ action: 'ask', reason: 'approval required by rules[2] (tool "edit_*")' })
  })

  it('matches every `when` entry; a missing argument never matches', () => {
    const decide = policy({ rules: [{ tool: 'bash', action: 'deny', when: { command: 'git push*', cwd: '/repo*' } }] })
    expect(decide('bash', { command: 'git push origin', cwd: '/repo/a' }).action).toBe('deny')
    expect(decide('bash', { command: 'git push origin', cwd: '/tmp' }).action).toBe('allow')
    expect(decide('bash', { command: 'git push origin' }).action).toBe('allow')
  })

  it('matches non-string arguments against their JSON text', () => {
    const decide = policy({
      rules: [
        { tool: 'rm', action: 'deny', when: { recursive: 'true' } },
        { tool: 'read_file', action: 'deny', when: { paths: '*secret*' } },
        { tool: 'bash', action: 'deny', when: { timeout: '9??' } },
      ],
    })
    expect(decide('rm', { recursive: true }).action).toBe('deny')
    expect(decide('rm', { recursive: false }).action).toBe('allow')
    expect(decide('read_file', { paths: ['a', 'secret.txt'] }).action).toBe('deny')
    expect(decide('bash', { timeout: 900 }).action).toBe('deny')
    expect(decide('bash', { timeout: 90 }).action).toBe('allow')
  })

  it('never lets an allow rule match an argument with a `..` segment, while deny still does', () => {
    const decide = policy({
      default: 'ask',
      rules: [
        { tool: 'write_file', action: 'allow', when: { path: 'src/*' } },
        { tool: 'read_file', action: 'deny', when: { path: '*secrets*' } },
      ],
    })
    expect(decide('write_file', { path: 'src/a.ts' }).action).toBe('allow')
    expect(decide('write_file', { path: 'src/../.git/hooks/pre-commit' }).action).toBe('ask')
    expect(decide('write_file', { path: 'src\\..\\x' }).action).toBe('ask')
    expect(decide('read_file', { path: 'a/../secrets/key' }).action).toBe('deny')
  })

  it('rejects a bad glob or an empty field, naming the entry', () => {
    const error = (config: Partial<PermissionGuardConfig>) => {
      try {
        policy(config)
      } catch (e) {
        return e as PolicyError
      }
      throw new Error('expected a PolicyError')
    }
    const badGlob = error({ rules: [{ tool: 'a', action: 'allow' }, { tool: 'b', action: 'deny', when: { path: 'src/[' } }] })
    expect(badGlob).toBeInstanceOf(PolicyError)
    expect(badGlob.path).toEqual(['rules', 1, 'when', 'path'])
    expect(badGlob.message).toBe('"src/[" has a "[" without its closing "]" (escape a literal one as "\\[")')
    expect(error({ rules: [{ tool: '', action: 'deny' }] }).path).toEqual(['rules', 0, 'tool'])
    expect(error({ rules: [{ tool: 'x', action: 'deny', reason: '' }] }).path).toEqual(['rules', 0, 'reason'])
  })
})

describe('a tool that no rule names', { timeout: 120_000 }, () => {
  // The policy answers such a tool without evaluating the rule list (rules.ts); a rule for every
  // tool that never matches (its argument is never passed) sends it down the whole evaluation.
  const never = (action: 'allow' | 'deny' | 'ask') => ({ tool: '*', action, when: { never_passed: '*' } })
  const entries = ['Bash', 'Bash(git status)', 'Bash(rm:*)', 'Read', 'Read(./src/**)', 'Edit(src/**)', 'mcp__srv__do']
  const list = fc.subarray(entries)

  it('gets the verdict the whole evaluation gives, permissions and default included', () => {
    fc.assert(fc.property(
      fc.constantFrom('allow', 'deny', 'ask' as const),
      fc.constantFrom('allow', 'deny', 'ask' as const),
      fc.record({ allow: list, ask: list, deny: list }),
      fc.constantFrom('bash', 'Bash', 'read', 'Read', 'edit', 'mcp__srv__do', 'noop'),
      fc.record({ command: fc.constantFrom('git status', 'rm -rf x', 'ls; rm y', 'echo $X'), path: fc.constantFrom('src/a.ts', '.env', '../x') }, { requiredKeys: [] }),
      (fallback, action, permissions, name, args) => {
        const quick = compilePolicy({ default: fallback, rules: [], permissions, cwd: '/work' })
        const whole = compilePolicy({ default: fallback, rules: [never(action)], permissions, cwd: '/work' })
        expect(quick(name, args)).toEqual(whole(name, args))
        expect(quick(name, args)).toEqual(quick(name, args)) // the second answer, from the remembered default
      },
    ), { numRuns: 500 })
  })

  it('shares one frozen default verdict between its calls', () => {
    const decide = policy({ default: 'deny' })
    const first = decide('x', {})
    expect([decide('x', { a: 1 }) === first, Object.isFrozen(first)]).toEqual([true, true])
  })
})
