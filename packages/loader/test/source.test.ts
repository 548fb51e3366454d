import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, ConfigErrors, LoaderCodes } from '../src/errors.js'
import { MAX_CONFIG_BYTES, parseYaml, readYaml } from '../src/source.js'
import { project } from './helpers.js'

/** The problems `parseYaml` refuses `text` with, as their messages. */
function refusalOf(text: string): string[] {
  try {
    parseYaml('/x/rein.yaml', text)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigErrors)
    return (error as ConfigErrors).errors.map((e) => e.message)
  }
  throw new Error('expected ConfigErrors')
}

describe('readYaml', () => {
  it('reports a syntax error with the file, the line and the parser message', async () => {
    const dir = await project({ 'rein.yaml': 'plugins:\n  - use: a\n    config: { maxAttempts: 3\n  - use: b\n' })
    const file = join(dir, 'rein.yaml')
    const [error] = (await readYaml(file).catch((e: unknown) => e) as ConfigErrors).errors as [ConfigError]
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.code).toBe(LoaderCodes.CONFIG_SYNTAX)
    expect(error.line).toBe(3)
    expect(error.message).toBe(`${file}:3: YAML syntax error: Flow map in block collection must be sufficiently indented and end with a } (column 13)`)
  })

  it('reports every duplicate key at its line, with the line of the first', () => {
    expect(refusalOf('agent:\n  maxTurns: 3\nagent: {}\n')).toEqual([
      '/x/rein.yaml:3: duplicate key "agent" (first at line 1); a key appears once in a mapping, so merge the two or remove one',
    ])
    const deep = ['plugins:', '  - use: a', '    config:', '      rules:', '        - { tool: x, action: deny, tool: y }', '      nested:']
    for (let i = 0; i < 2000; i++) deep.push(`        k${i}: ${i}`)
    deep.push('        k1500: again', 'session: s.jsonl')
    expect(refusalOf(deep.join('\n'))).toEqual([
      '/x/rein.yaml:5: duplicate key "tool" (first at line 5); a key appears once in a mapping, so merge the two or remove one',
      '/x/rein.yaml:2007: duplicate key "k1500" (first at line 1507); a key appears once in a mapping, so merge the two or remove one',
    ])
  })

  it('counts keys that load as the same property as duplicates (1 and "1")', () => {
    expect(refusalOf('a:\n  1: x\n  "1": y\n')).toEqual([
      '/x/rein.yaml:3: duplicate key "1" (first at line 2); a key appears once in a mapping, so merge the two or remove one',
    ])
  })

  it('counts a key written as an alias, and a collection key written twice, as duplicates', () => {
    // Found in review: `*d : allow` repeated `default` unseen, and the later one (allow) won.
    expect(refusalOf('config:\n  &d default: deny\n  rules: []\n  *d : allow\n')).toEqual([
      '/x/rein.yaml:4: duplicate key "default" (first at line 2); a key appears once in a mapping, so merge the two or remove one',
    ])
    expect(refusalOf('a:\n  ? [x, y]\n  : 1\n  ? [x, y]\n  : 2\n')).toEqual([
      '/x/rein.yaml:4: duplicate key "["x","y"]" (first at line 2); a key appears once in a mapping, so merge the two or remove one',
    ])
    expect(() => parseYaml('/x/rein.yaml', 'a:\n  ? &k [x]\n  : 1\nb:\n  *k : 1\n')).not.toThrow() // one each, in two mappings
  })

  it('refuses an alias bomb with the line where the aliases pass the limit', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 9; i++) {
      const [name, previous] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)]
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`)
    }
    expect(refusalOf(lines.join('\n'))).toEqual([
      '/x/rein.yaml:4: the aliases expand to more than 100 values by *c here, which is refused as a resource exhaustion attack ' +
      '("billion laughs"); write the values out, or use fewer nested aliases',
    ])
  })

  it('keeps a few aliases working', () => {
    expect(parseYaml('/x/rein.yaml', 'base: &b { root: . }\nother: *b\n').data).toEqual({ base: { root: '.' }, other: { root: '.' } })
  })

  it('refuses a file larger than the limit without reading all of it', async () => {
    const dir = await project({ 'rein.yaml': `# ${'x'.repeat(MAX_CONFIG_BYTES)}\n` })
    const error = await readYaml(join(dir, 'rein.yaml')).catch((e: unknown) => e) as ConfigErrors
    expect(error).toBeInstanceOf(ConfigErrors)
    expect(error.errors[0]?.code).toBe(LoaderCodes.CONFIG_UNREADABLE)
    expect(error.message).toBe(`${join(dir, 'rein.yaml')}: the file is larger than 1 MiB (1048576 bytes), the most rein reads of a config; ` +
      'keep large data in a file that a plugin reads')
    await expect(readYaml(join(dir, 'rein.yaml'), { maxBytes: 2 * MAX_CONFIG_BYTES })).resolves.toMatchObject({ data: undefined })
  })

  it('says when the file does not exist', async () => {
    const dir = await project({})
    await expect(readYaml(join(dir, 'rein.yaml'))).rejects.toThrow(`${join(dir, 'rein.yaml')}: cannot read the file: file not found`)
  })

  it('finds the line of any value, or of its deepest existing ancestor', () => {
    const source = parseYaml('/x/rein.yaml', 'provider:\n  use: p\nplugins:\n  - use: a\n    config:\n      nested:\n        limit: 2\n  - b\n')
    expect(source.lineOf(['plugins', 0, 'config', 'nested', 'limit'])).toBe(7)
    expect(source.lineOf(['plugins', 1])).toBe(8)
    expect(source.lineOf(['plugins', 0, 'config', 'missing'])).toBe(5)
    expect(source.lineOf(['nothing'])).toBe(1)
  })

  it('refuses a value that YAML tags make into something other than plain data, at its line', () => {
    const instead = 'which rein does not read as config; write a plain mapping, list or string instead'
    expect(refusalOf([
      'plugins:',
      '  - use: a',
      '    config:',
      '      when: !!set { command }',
      '      order: !!omap [ { a: 1 }, { b: 2 } ]',
      '      key: !!binary aGVsbG8=',
      '      since: !!timestamp 2001-12-14',
    ].join('\n'))).toEqual([
      `/x/rein.yaml:4: plugins[0].config.when is a YAML set (!!set), ${instead}`,
      `/x/rein.yaml:5: plugins[0].config.order is an ordered mapping (!!omap), ${instead}`,
      `/x/rein.yaml:6: plugins[0].config.key is binary data (!!binary), ${instead}`,
      '/x/rein.yaml:7: plugins[0].config.since is a timestamp, which YAML turns into a date that rein does not read as config; quote it to keep it a string',
    ])
    expect(refusalOf('%YAML 1.1\n---\nsession: s.jsonl\nagent:\n  since: 2024-01-01\n')).toEqual([
      '/x/rein.yaml:5: agent.since is a timestamp, which YAML turns into a date that rein does not read as config; quote it to keep it a string',
    ])
    expect(refusalOf('!!set { a, b }\n')).toEqual([`/x/rein.yaml:1: the file's value is a YAML set (!!set), ${instead}`])
  })

  it('keeps plain values written with tags, !!pairs and a quoted date', () => {
    expect(parseYaml('/x/rein.yaml', "a: !!map { b: !!str 1 }\nc: !!pairs [ { d: 1 } ]\ne: '2024-01-01'\n").data)
      .toEqual({ a: { b: '1' }, c: [{ d: 1 }], e: '2024-01-01' })
  })

  it('refuses a value that contains itself through an alias', () => {
    expect(refusalOf('plugins:\n  - use: a\n    config: &c\n      self: *c\n')).toEqual([
      '/x/rein.yaml:4: plugins[0].config.self contains itself through a YAML alias, which no config can hold; write the value out instead',
    ])
  })

  it('treats an empty file as no value', () => {
    expect(parseYaml('/x/rein.yaml', '# nothing yet\n').data).toBeUndefined()
  })
})
