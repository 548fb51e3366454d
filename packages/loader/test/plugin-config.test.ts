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
