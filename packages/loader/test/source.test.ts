import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, LoaderCodes } from '../src/errors.js'
import { parseYaml, readYaml } from '../src/source.js'
import { project } from './helpers.js'

describe('readYaml', () => {
  it('reports a syntax error with the file, the line and the parser message', async () => {
    const dir = await project({ 'rein.yaml': 'plugins:\n  - use: a\n    config: { maxAttempts: 3\n  - use: b\n' })
    const file = join(dir, 'rein.yaml')
    const error = await readYaml(file).catch((e: unknown) => e) as ConfigError
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.code).toBe(LoaderCodes.CONFIG_SYNTAX)
    expect(error.line).toBe(4)
    expect(error.message).toMatch(new RegExp(`^${file}:4: YAML syntax error: .+ \\(column \\d+\\)$`))
  })

  it('reports a duplicate key as a syntax error at its line', () => {
    expect(() => parseYaml('/x/rein.yaml', 'agent:\n  maxTurns: 3\nagent: {}\n'))
      .toThrow('/x/rein.yaml:3: YAML syntax error: Map keys must be unique (column 1)')
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

  it('treats an empty file as no value', () => {
    expect(parseYaml('/x/rein.yaml', '# nothing yet\n').data).toBeUndefined()
  })
})
