import { describe, expect, it } from 'vitest'
import { ValueProblem } from '../src/errors.js'
import { interpolateEnv, isRelativePath, resolveRelativePaths } from '../src/interpolate.js'

describe('interpolateEnv', () => {
  it('replaces ${env:NAME} anywhere in any string, and nothing else', () => {
    const out = interpolateEnv({ key: 'sk-${env:KEY}', list: ['${env:HOST}:${env:PORT}', 7], other: '${call_1.result}' },
      { KEY: 'abc', HOST: 'localhost', PORT: '8080' })
    expect(out).toEqual({ key: 'sk-abc', list: ['localhost:8080', 7], other: '${call_1.result}' })
  })

  it('adds each value it put in to the substituted set, and nothing written literally', () => {
    const substituted = new Set<string>()
    interpolateEnv({ key: 'sk-${env:KEY}', list: ['${env:HOST}', '$${env:PORT}', 'plain'] }, { KEY: 'abc', HOST: 'localhost', PORT: '8080' }, [], undefined, substituted)
    expect([...substituted]).toEqual(['abc', 'localhost'])
  })

  it('keeps $${env:NAME} as the literal text ${env:NAME}', () => {
    expect(interpolateEnv('$${env:KEY}', {})).toBe('${env:KEY}')
  })

  it('names a missing variable and where it was used', () => {
    let problem: ValueProblem | undefined
    try {
      interpolateEnv({ provider: { config: { apiKey: '${env:DEEPSEEK_API_KEY}' } } }, {})
    } catch (error) {
      problem = error as ValueProblem
    }
    expect(problem?.code).toBe('ENV_MISSING')
    expect(problem?.path).toEqual(['provider', 'config', 'apiKey'])
    expect(problem?.detail).toBe('environment variable DEEPSEEK_API_KEY is not set (referenced as ${env:DEEPSEEK_API_KEY}); set it or remove the reference')
  })

  it('never evaluates anything: an expression is not a variable name', () => {
    expect(() => interpolateEnv('${env:process.exit()}', {})).toThrow('"${env:process.exit()}" is not a valid variable reference')
  })

  it('collects every bad reference into a list when given one, leaving the text as written', () => {
    const problems: ValueProblem[] = []
    const out = interpolateEnv({ a: '${env:ONE}', b: ['${env:TWO} ${env:3x}'] }, {}, ['plugins', 0], problems)
    expect(out).toEqual({ a: '${env:ONE}', b: ['${env:TWO} ${env:3x}'] })
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['ENV_MISSING', ['plugins', 0, 'a']],
      ['ENV_MISSING', ['plugins', 0, 'b', 0]],
      ['CONFIG_INVALID', ['plugins', 0, 'b', 0]],
    ])
  })

  it('keeps a __proto__ key as an own key of the copy, never as its prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "${env:KEY}"}}')
    const out = interpolateEnv(value, { KEY: 'yes' }) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
    expect((out as { polluted?: unknown }).polluted).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 'yes' })
  })
})

describe('resolveRelativePaths', () => {
  it('makes ., .., ./x and ../x absolute from the base folder, and leaves other strings alone', () => {
    const out = resolveRelativePaths({ a: '.', b: '..', c: './x/y', d: ['../z'], e: 'plain', f: '.hidden', g: '/abs' }, '/base/dir')
    expect(out).toEqual({ a: '/base/dir', b: '/base', c: '/base/dir/x/y', d: ['/base/z'], e: 'plain', f: '.hidden', g: '/abs' })
  })

  it('recognises exactly the relative forms', () => {
    expect(['.', '..', './a', '../a'].every(isRelativePath)).toBe(true)
    expect(['.a', '..a', 'a/./b', '/a', ''].some(isRelativePath)).toBe(false)
  })
})
