import { describe, expect, it } from 'vitest'
import * as guard from '../src/index.js'
import { harness, outcome } from './helpers.js'

/** Loads the plugin with `config` and returns the load error's message, if any. */
async function loadError(config: unknown): Promise<string | undefined> {
  const { ctx } = await harness()
  const fork = ctx.plugin(guard, config as never)
  await ctx.start()
  return fork.error?.message
}

describe('permission-guard config', () => {
  it('defaults to allow with no rules', () => {
    expect(guard.Config({})).toEqual({ default: 'allow', rules: [] })
    expect(guard.Config(undefined)).toEqual({ default: 'allow', rules: [] })
  })

  it('loads with no config at all and then allows everything', async () => {
    const { ctx, call } = await harness()
    const fork = ctx.plugin(guard)
    await ctx.start()
    expect(fork.error).toBeFalsy()
    expect(outcome(await call('rm'))).toBe('ok')
  })

  it('loads a valid config', async () => {
    expect(await loadError({ default: 'ask', rules: [{ tool: 'read_*', action: 'allow', when: { path: 'src/*' } }] })).toBeUndefined()
  })

  it('rejects bad configs at load, naming the key', async () => {
    expect(await loadError({ default: 'maybe' })).toBe('$.default expected "allow" | "deny" | "ask" but got "maybe"')
    expect(await loadError({ rules: [{ tool: 'x', action: 'nope' }] }))
      .toBe('$.rules[0].action expected "allow" | "deny" | "ask" but got "nope"')
    expect(await loadError({ rules: [{ action: 'deny' }] })).toBe('$.rules[0].tool missing required value')
    expect(await loadError({ rules: [{ tool: 'x', action: 'deny', when: { force: true } }] }))
      .toBe('$.rules[0].when.force must be a glob string such as "src/*", or { shell: glob } for a shell command line; got true')
    expect(await loadError({ rules: [{ tool: 'x', action: 'deny' }, { tool: 'y', action: 'deny', when: { path: 'src/[' } }] }))
      .toBe('$.rules[1].when.path "src/[" has a "[" without its closing "]" (escape a literal one as "\\[")')
    expect(await loadError({ rules: [{ tool: '{a,b', action: 'deny' }] }))
      .toBe('$.rules[0].tool "{a,b" has a "{" without its closing "}" (escape a literal one as "\\{")')
    expect(await loadError({ rules: [{ tool: '', action: 'deny' }] }))
      .toBe('$.rules[0].tool must be a non-empty glob such as "read_*"')
  })

  it('rejects a bad shell matcher at load, naming the key and the fix', async () => {
    expect(await loadError({ rules: [{ tool: 'bash', action: 'deny', when: { command: { shel: 'rm *' } } }] }))
      .toBe('$.rules[0].when.command has an unknown key "shel": the only key is "shell", as in { shell: "rm *" }')
    expect(await loadError({ rules: [{ tool: 'bash', action: 'deny', when: { command: { shell: 7 } } }] }))
      .toBe('$.rules[0].when.command.shell must be a non-empty glob string such as "rm *"; got 7')
    expect(await loadError({ rules: [{ tool: 'bash', action: 'allow', when: { command: { shell: 'git {status' } } }] }))
      .toBe('$.rules[0].when.command.shell "git {status" has a "{" without its closing "}" (escape a literal one as "\\{")')
    expect(await loadError({ rules: [{ tool: 'bash', action: 'deny', when: { command: { shell: 'rm *' } } }] })).toBeUndefined()
  })

  it('rejects a `when` that is not a plain object, naming what it got', async () => {
    const rule = (when: unknown) => ({ rules: [{ tool: 'bash', action: 'allow', when }] })
    const expected = (got: string) => `$.rules[0].when must be an object of argument name -> matcher, such as { command: { shell: "rm *" } }; got ${got}`
    expect(await loadError(rule(null))).toBe(expected('null'))
    expect(await loadError(rule(['command']))).toBe(expected('["command"]'))
    expect(await loadError(rule(new Map([['command', 'git *']])))).toBe(expected('a Map'))
    expect(await loadError(rule(new Set(['command'])))).toBe(expected('a Set'))
    expect(await loadError(rule('git *'))).toBe(expected('"git *"'))
    class Entries { command = 'git *' }
    expect(await loadError(rule(new Entries()))).toBe(expected('an object whose prototype is not Object.prototype'))
    expect(await loadError(rule(Object.create({ command: 'git *' })))).toBe(expected('an object whose prototype is not Object.prototype'))
    expect(await loadError(rule(Object.assign(Object.create(null), { command: 'git *' })))).toBeUndefined()
  })

  it('rejects an empty `when`, which would make the rule match every call of its tool', async () => {
    expect(await loadError({ default: 'deny', rules: [{ tool: 'bash', action: 'allow', when: {} }] })).toBe(
      '$.rules[0].when is empty, so the rule would match every call of its tool; name the arguments it is about, or leave "when" out to mean every call')
    expect(await loadError({ default: 'deny', rules: [{ tool: 'bash', action: 'allow' }] })).toBeUndefined()
  })

  it('rejects __proto__, constructor and prototype as argument names in `when`', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const when = JSON.parse(`{ ${JSON.stringify(key)}: { "command": "rm *" } }`)
      expect(await loadError({ rules: [{ tool: 'bash', action: 'allow', when }] })).toBe(
        `$.rules[0].when has the key "${key}", which cannot name an argument ("__proto__", "constructor" and "prototype" are reserved); rename or remove it`)
    }
  })

  it('denies what an allow rule with a rejected `when` would have let through', async () => {
    const { ctx, call, ran } = await harness()
    ctx.plugin(guard, { default: 'deny', rules: [{ tool: 'bash', action: 'allow', when: null }] } as never)
    await ctx.start()
    expect(outcome(await call('bash', { command: 'rm -rf /' }))).not.toBe('ok')
    expect(ran).toEqual([])
  })

  it('rejects a matcher object that is not a plain object', async () => {
    expect(await loadError({ rules: [{ tool: 'bash', action: 'deny', when: { command: new Map([['shell', 'rm *']]) } }] }))
      .toBe('$.rules[0].when.command must be a glob string such as "src/*", or { shell: glob } for a shell command line; got a Map')
  })

  it('registers nothing when the config is rejected', async () => {
    const { ctx } = await harness()
    ctx.plugin(guard, { rules: "all" } as never)
    await ctx.start()
    expect(ctx.tools.chain('tools/pre-execute')).toEqual([])
    expect(ctx.get('approval')).toBeUndefined()
  })
})
