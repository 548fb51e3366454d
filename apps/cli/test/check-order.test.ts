/**
 * `rein check` on the mistakes a hand-written rein.yaml makes: plugins in an order their
 * packages warn against (a warning; the check passes), and, as errors, a file that describes
 * no harness, a misspelt standard package and a YAML syntax error at its real line.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { project, rein } from './helpers.js'

describe('rein check', () => {
  it('warns about each pair of plugins in the wrong order, naming both, the consequence and the fix', async () => {
    const dir = await project({
      'rein.yaml': [
        'plugins:',
        '  - use: "@rein/plugin-audit"',
        '    config: { file: ./audit.jsonl }',
        '  - use: "@rein/plugin-retry"',
        '  - use: "@rein/plugin-cache"',
        '  - use: "@rein/plugin-timeout-policy"',
      ].join('\n'),
    })
    const file = join(dir, 'rein.yaml')
    const { code, stdout, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.OK)
    expect(stderr).toBe(
      `! warning: ${file}:4 plugins[1] (@rein/plugin-retry) is listed before plugins[2] (@rein/plugin-cache): cache then sits ` +
      'inside retry, so it caches and shares single attempts rather than the retried result, and a hit no longer skips retry; ' +
      'list @rein/plugin-cache before @rein/plugin-retry\n')
    expect(stdout).toContain('4 plugin(s), 0 tool source(s) (0 tools), all configs valid')
  })

  it('refuses an empty file, or one of comments only, instead of passing it', async () => {
    for (const text of ['', '# TODO: plugins\n']) {
      const dir = await project({ 'rein.yaml': text })
      const { code, stdout, stderr } = await rein(['check'], dir)
      expect(code).toBe(ExitCodes.FAILURE)
      expect(stdout).toBe('')
      expect(stderr).toBe(`✗ ${join(dir, 'rein.yaml')}: the file is empty (or holds only comments), so there is no harness to build; ` +
        'list at least a provider, a plugin or a tool source in it\n')
    }
    const dir = await project({ 'rein.yaml': 'plugins: []\nagent: { maxTurns: 3 }\n' })
    expect((await rein(['check'], dir)).stderr).toBe(`✗ ${join(dir, 'rein.yaml')}:1: the file lists no provider, plugins or tools, ` +
      'so there is no harness to build; list at least one of them\n')
  })

  it('suggests the standard package a misspelt use: is close to', async () => {
    const dir = await project({ 'rein.yaml': 'plugins:\n  - use: "@rein/plugin-timeout"\n  - use: "@rein/plugin-cahce"\n' })
    const { code, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    const lines = stderr.trim().split('\n')
    expect(lines[0]).toMatch(/^✗ .*rein\.yaml:2 plugins\[0\] \(@rein\/plugin-timeout\): cannot find package "@rein\/plugin-timeout"; looked in /)
    expect(lines[1]).toMatch(/^✗ .*rein\.yaml:3 plugins\[1\] \(@rein\/plugin-cahce\): cannot find package "@rein\/plugin-cahce" \(did you mean "@rein\/plugin-cache"\?\); looked in /)
  })

  it('points a YAML syntax error at the line to fix', async () => {
    const dir = await project({
      'rein.yaml': [
        'plugins:',
        '  - use: "@rein/plugin-audit"',
        '    config: { file: ./audit.jsonl }',
        '  - use: "@rein/plugin-retry"',
        '    config:',
        '      maxAttempts: 2',
        '     baseDelayMs: 10',
        '  - use: "@rein/plugin-timeout-policy"',
      ].join('\n'),
    })
    const { code, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toBe(`✗ ${join(dir, 'rein.yaml')}:7: YAML syntax error: All mapping items must start at the same column (column 6)\n`)
  })
})
