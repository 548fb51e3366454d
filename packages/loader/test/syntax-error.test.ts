/**
 * A YAML syntax error is reported where a person must fix it: an unclosed quote or bracket at
 * the line and column where it opens (the parser gives up lines later), an indentation error
 * at the text that is out of place, anything else where the parser says.
 */
import { describe, expect, it } from 'vitest'
import { ConfigErrors } from '../src/errors.js'
import { parseYaml } from '../src/source.js'

/** The one problem `parseYaml` refuses `lines` with. */
function syntaxErrorOf(lines: string[]): string {
  try {
    parseYaml('/x/rein.yaml', lines.join('\n') + '\n')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigErrors)
    return (error as ConfigErrors).message
  }
  throw new Error('expected ConfigErrors')
}

const PLUGINS = ['plugins:', '  - use: "@rein/plugin-audit"', '    config:', '      file: ./audit.jsonl']

describe('where a YAML syntax error is', () => {
  it('a bad indent: its own line, at the misplaced key', () => {
    expect(syntaxErrorOf([...PLUGINS, '  - use: "@rein/plugin-retry"', '    config:', '      maxAttempts: 2', '     baseDelayMs: 10']))
      .toBe('/x/rein.yaml:8: YAML syntax error: All mapping items must start at the same column (column 6)')
    expect(syntaxErrorOf([...PLUGINS, '  - use: "@rein/plugin-retry"', '    config: {}', '     optional: true']))
      .toBe('/x/rein.yaml:7: YAML syntax error: All mapping items must start at the same column (column 6)')
  })

  it('an unclosed quote: where it opens, not at the end of the file', () => {
    expect(syntaxErrorOf([...PLUGINS, '  - use: "@rein/plugin-retry', '    config: { maxAttempts: 2 }', 'agent: { maxTurns: 3 }']))
      .toBe('/x/rein.yaml:5: YAML syntax error: Missing closing "quote (column 10)')
    expect(syntaxErrorOf(['plugins:', "  - use: '@rein/plugin-retry", 'agent: {}']))
      .toBe("/x/rein.yaml:2: YAML syntax error: Missing closing 'quote (column 10)")
  })

  it('an unclosed { or [: where it opens', () => {
    expect(syntaxErrorOf([...PLUGINS, '  - use: "@rein/plugin-retry"', '    config: { maxAttempts: 2', 'agent: { maxTurns: 3 }']))
      .toBe('/x/rein.yaml:6: YAML syntax error: Flow map in block collection must be sufficiently indented and end with a } (column 13)')
    expect(syntaxErrorOf(['examples: [a.yaml, b.yaml', 'agent: {}']))
      .toBe('/x/rein.yaml:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ] (column 11)')
  })

  it('a tab used as indentation: where the parser says', () => {
    expect(syntaxErrorOf(['tools:', '  - use: "@rein/tools-fs"', '    config:', '\troot: .']))
      .toBe('/x/rein.yaml:4: YAML syntax error: Tabs are not allowed as indentation (column 1)')
  })
})
