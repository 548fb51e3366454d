import { describe, expect, it } from 'vitest'
import { ValueProblem } from '../src/errors.js'
import { pluginOf, providerFactoryOf } from '../src/modules.js'

const apply = () => {}

describe('pluginOf', () => {
  it('takes the module itself when it exports apply', () => {
    const namespace = { name: 'p', apply, default: { apply() {} } }
    expect(pluginOf(namespace)).toBe(namespace)
  })

  it('takes the default export: an object with apply, a function or a class', () => {
    const object = { name: 'p', apply }
    expect(pluginOf({ default: object })).toBe(object)
    function plugin() {}
    expect(pluginOf({ default: plugin })).toBe(plugin)
    class Service {}
    expect(pluginOf({ default: Service })).toBe(Service)
  })

  it('looks one level deeper, as CommonJS seen through import() nests its exports', () => {
    const object = { apply }
    expect(pluginOf({ default: { default: object } })).toBe(object)
  })

  it('refuses anything else, listing what the module exports', () => {
    let problem: ValueProblem | undefined
    try {
      pluginOf({ default: { config: 1 }, helper: 2 })
    } catch (error) {
      problem = error as ValueProblem
    }
    expect(problem?.code).toBe('NOT_A_PLUGIN')
    expect(problem?.detail).toMatch(/^this module is not a cordis plugin: .*; it exports: default, helper$/)
  })
})

describe('providerFactoryOf', () => {
  it('finds createProvider named or on the default export', () => {
    const createProvider = () => ({ generate: async () => ({ role: 'assistant', content: '' }) })
    expect(providerFactoryOf({ createProvider })).toBe(createProvider)
    expect(providerFactoryOf({ default: { createProvider } })).toBe(createProvider)
  })

  it('refuses a module without it', () => {
    expect(() => providerFactoryOf({})).toThrow('this module is not a provider: a provider module exports createProvider(config) returning { generate(req) }; it exports nothing')
  })
})
