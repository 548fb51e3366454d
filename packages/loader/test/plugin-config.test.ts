import { Schema } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ValueProblem } from '../src/errors.js'
import { checkPluginConfig } from '../src/plugin-config.js'

const plugin = {
  apply() {},
  Config: Schema.object({
    maxAttempts: Schema.number().default(3),
    mode: Schema.union(['fast', 'safe']).default('safe'),
    rules: Schema.array(Schema.object({ tool: Schema.string().required(), action: Schema.string() })).default([]),
  }),
}

const problemOf = (config: unknown) => {
  try {
    checkPluginConfig(plugin, config)
  } catch (error) {
    return error as ValueProblem
  }
  throw new Error('expected a problem')
}

describe('checkPluginConfig', () => {
  it('accepts a valid config, and an absent one when the schema has defaults', () => {
    expect(() => checkPluginConfig(plugin, { maxAttempts: 5, rules: [{ tool: 'x' }] })).not.toThrow()
    expect(() => checkPluginConfig(plugin, undefined)).not.toThrow()
  })

  it('names the key and the expected type, with the path for the line number', () => {
    const problem = problemOf({ maxAttempts: 'three' })
    expect(problem.code).toBe('PLUGIN_CONFIG_INVALID')
    expect(problem.detail).toBe('maxAttempts must be a number (got "three")')
    expect(problem.path).toEqual(['config', 'maxAttempts'])
  })

  it('names nested keys and list items', () => {
    expect(problemOf({ rules: [{ tool: 'a' }, { tool: 5 }] }).detail).toBe('rules[1].tool must be a string (got 5)')
    expect(problemOf({ rules: [{ action: 'deny' }] }).detail).toBe('rules[0].tool is required')
    expect(problemOf({ mode: 'slow' }).detail).toBe('mode must be one of "fast" | "safe" (got "slow")')
  })

  it('rejects a key the schema does not know, suggesting the close one', () => {
    expect(problemOf({ maxAttempt: 2 }).detail).toBe('unknown config key "maxAttempt" (did you mean "maxAttempts"?); valid keys: maxAttempts, mode, rules')
  })

  it('does nothing for a plugin without a schema', () => {
    expect(() => checkPluginConfig({ apply() {} }, { anything: 1 })).not.toThrow()
  })
})

describe('checkPluginConfig with a schema that throws its own error', () => {
  const custom = {
    apply() {},
    Config: Schema.transform(Schema.object({ store: Schema.string(), dir: Schema.string() }), (value: { store?: string | null, dir?: string | null }) => {
      if (value.dir && value.store !== 'local') throw new TypeError(`$.dir is only used by store "local", but store is "${value.store}"`)
      return value
    }),
  }

  it('keeps the key named in the message, for the text and the line', () => {
    let problem: ValueProblem | undefined
    try {
      checkPluginConfig(custom, { store: 'memory', dir: '/tmp/x' })
    } catch (error) {
      problem = error as ValueProblem
    }
    expect(problem?.path).toEqual(['config', 'dir'])
    expect(problem?.detail).toBe('dir is only used by store "local", but store is "memory"')
  })
})

describe('checkPluginConfig finds unknown keys at every depth', () => {
  const detailOf = (Config: unknown, config: unknown) => {
    try {
      checkPluginConfig({ apply() {}, Config }, config)
    } catch (error) {
      return [(error as ValueProblem).path, (error as ValueProblem).detail]
    }
    return undefined
  }
  const Rule = Schema.object({ tool: Schema.string().required(), when: Schema.dict(Schema.any()) })
  const Guard = Schema.transform(Schema.object({ default: Schema.string(), rules: Schema.array(Rule).default([]) }), (value) => value, true)

  it('looks through a transform, into each item of a list, and names the path', () => {
    expect(detailOf(Guard, { defualt: 'deny' }))
      .toEqual([['config', 'defualt'], 'unknown config key "defualt" (did you mean "default"?); valid keys: default, rules'])
    expect(detailOf(Guard, { rules: [{ tool: 'a' }, { tool: 'b', wehn: {} }] }))
      .toEqual([['config', 'rules', 1, 'wehn'], 'unknown config key "wehn" in rules[1] (did you mean "when"?); valid keys: tool, when'])
  })

  it('says when the key just before the unknown one is empty, as after a slip of indentation', () => {
    expect(detailOf(Guard, { rules: [{ tool: 'b', when: null, command: 'x' }] })?.[1]).toBe('unknown config key "command" in rules[0]; ' +
      'valid keys: tool, when; "when" just before it is empty: if "command" belongs under "when", indent it further')
  })

  it('checks each value of a dictionary, whose keys are free, and stops at any', () => {
    const Caps = Schema.object({ tools: Schema.dict(Schema.object({ limit: Schema.natural() })), extra: Schema.any() })
    expect(detailOf(Caps, { tools: { 'read.file': { limit: 1 }, grep: { limt: 2 } }, extra: { whatever: { at: 'all' } } }))
      .toEqual([['config', 'tools', 'grep', 'limt'], 'unknown config key "limt" in tools.grep (did you mean "limit"?); valid keys: limit'])
    expect(detailOf(Caps, { tools: { 'read.file': { limit: 1 } }, extra: { whatever: 1 } })).toBeUndefined()
    expect(detailOf(Guard, { rules: [{ tool: 'b', when: { anything: { shell: 'x' } } }] })).toBeUndefined()
  })

  it('knows the keys of every part of an intersection, and a dictionary part leaves them free', () => {
    const Both = Schema.intersect([Schema.object({ a: Schema.number() }), Schema.object({ b: Schema.object({ c: Schema.number() }) })])
    expect(detailOf(Both, { a: 1, b: { c: 2 } })).toBeUndefined()
    expect(detailOf(Both, { a: 1, x: 2 })?.[1]).toBe('unknown config key "x"; valid keys: a, b')
    expect(detailOf(Both, { b: { d: 2 } })?.[1]).toBe('unknown config key "d" in b (did you mean "c"?); valid keys: c')
    expect(detailOf(Schema.intersect([Schema.object({ a: Schema.number() }), Schema.dict(Schema.number())]), { a: 1, x: 2 })).toBeUndefined()
  })

  it('follows the one branch of a union the value fits, and guesses nothing when several fit', () => {
    const Stdio = Schema.object({ command: Schema.string().required(), args: Schema.array(String) })
    const Http = Schema.object({ url: Schema.string().required(), headers: Schema.dict(String) })
    const Servers = Schema.object({ servers: Schema.dict(Schema.union([Stdio, Http])) })
    expect(detailOf(Servers, { servers: { a: { command: 'x', argz: [] } } })?.[1])
      .toBe('unknown config key "argz" in servers.a (did you mean "args"?); valid keys: command, args')
    expect(detailOf(Servers, { servers: { b: { url: 'http://x', header: {} } } })?.[1])
      .toBe('unknown config key "header" in servers.b (did you mean "headers"?); valid keys: url, headers')
    expect(detailOf(Servers, { servers: { c: { command: 'x', url: 'http://x', extra: 1 } } })).toBeUndefined()
    const StringOrObject = Schema.union([Schema.string(), Schema.object({ shell: Schema.string() })])
    expect(detailOf(Schema.object({ match: StringOrObject }), { match: 'rm *' })).toBeUndefined()
    expect(detailOf(Schema.object({ match: StringOrObject }), { match: { shel: 'rm *' } })?.[1])
      .toBe('unknown config key "shel" in match (did you mean "shell"?); valid keys: shell')
  })

  it('follows tuples and lazy (recursive) schemas', () => {
    const Pair = Schema.object({ first: Schema.tuple([Schema.object({ x: Schema.number() }), Schema.number()]) })
    expect(detailOf(Pair, { first: [{ y: 1 }, 2] })?.[1]).toBe('unknown config key "y" in first[0] (did you mean "x"?); valid keys: x')
    const Tree: Schema = Schema.object({ name: Schema.string(), children: Schema.array(Schema.lazy(() => Tree)) })
    expect(detailOf(Tree, { name: 'a', children: [{ name: 'b', children: [{ nmae: 'c' }] }] })?.[1])
      .toBe('unknown config key "nmae" in children[0].children[0] (did you mean "name"?); valid keys: name, children')
  })

  it('tries the branches of a union on a copy, as a branch may rename the keys it checks', () => {
    const upper = Schema.transform(Schema.string(), (key: string) => key.toUpperCase())
    const Either = Schema.object({ mode: Schema.union([Schema.object({ n: Schema.number() }), Schema.dict(Schema.number(), upper)]) })
    const config = { mode: { n: 1 } }
    checkPluginConfig({ apply() {}, Config: Either }, config)
    expect(config).toEqual({ mode: { n: 1 } })
  })
})

describe('checkPluginConfig refuses keys that name a prototype', () => {
  it('anywhere in the config, with or without a schema', () => {
    const config = JSON.parse('{ "rules": [{ "tool": "x", "when": { "__proto__": { "command": "rm *" } } }] }') as unknown
    let problem: ValueProblem | undefined
    try {
      checkPluginConfig({ apply() {} }, config)
    } catch (error) {
      problem = error as ValueProblem
    }
    expect(problem?.path).toEqual(['config', 'rules', 0, 'when', '__proto__'])
    expect(problem?.detail).toBe('config key "__proto__" in rules[0].when is refused: __proto__, constructor, prototype name parts of ' +
      'every JavaScript object, not settings, so a plugin would not read it as written; remove or rename it')
    expect(() => checkPluginConfig(plugin, { constructor: 1 })).toThrow('config key "constructor" is refused')
    expect(() => checkPluginConfig(plugin, { rules: [{ tool: 'x', prototype: {} }] })).toThrow('config key "prototype" in rules[0] is refused')
    expect(() => checkPluginConfig(plugin, JSON.parse('{ "mode": { "constructor": 1 }, "prototype": 2 }')))
      .toThrow('config key "constructor" in mode is refused')
  })
})
