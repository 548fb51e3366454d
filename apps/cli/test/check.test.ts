/** `rein check`: loads without running, and holds few-shot examples to their tools' schemas. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { demoConfig } from '../src/paths.js'
import { FIXTURES, project, rein } from './helpers.js'

const config = (examples = 'examples.yaml', retry = '') => `
plugins:
  - use: '@rein/plugin-retry'${retry}
tools:
  - use: ${join(FIXTURES, 'greet-tools.mjs')}
examples: [./${examples}]
`

const GOOD = `
- tool: greet
  arguments: { name: Ada }
- role: assistant
  content: Greet twice.
  toolCalls:
    - { id: x1, name: greet, arguments: '{"name": "Grace", "times": 2}' }
`

const BAD = `
- tool: greet
  arguments: { name: Ada }
- tool: greet
  arguments:
    name: 42
    times: 2
- tool: greet
  arguments: { times: 0 }
`

describe('rein check', () => {
  it('passes a harness whose examples fit their tools, without calling any model', async () => {
    const dir = await project({ 'rein.yaml': config(), 'examples.yaml': GOOD })
    const { code, stdout, stderr } = await rein(['check'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('1 plugin(s), 1 tool source(s) (1 tools), all configs valid')
    expect(stdout).toContain('2 example tool call(s) in 1 file(s) match')
  })

  it('says there are no examples to check instead of claiming that none match', async () => {
    const none = await project({ 'rein.yaml': `tools:\n  - use: ${join(FIXTURES, 'greet-tools.mjs')}\n` })
    const bare = await rein(['check'], none)
    expect(bare.code).toBe(ExitCodes.OK)
    expect(bare.stdout).toContain('no few-shot examples to check (an "examples:" list in the config names files of example tool calls)')
    expect(bare.stdout).not.toContain('0 example tool call(s)')
    const empty = await project({ 'rein.yaml': config(), 'examples.yaml': '[]\n' })
    expect((await rein(['check'], empty)).stdout).toContain('no tool calls to check in the 1 example file(s)')
  })

  it('exits 1 and names the file, line, example and schema rule of every bad argument', async () => {
    const dir = await project({ 'rein.yaml': config(), 'examples.yaml': BAD })
    const { code, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    const file = join(dir, 'examples.yaml')
    expect(stderr.split('\n').filter((line) => line.startsWith('✗'))).toEqual([
      `✗ ${file}:6 example[1] greet: /name: must be string`,
      `✗ ${file}:9 example[2] greet: missing required property "name"`,
      `✗ ${file}:9 example[2] greet: /times: must be >= 1`,
    ])
    expect(stderr).toContain('3 problem(s) in 1 example file(s), 3 tool call(s) checked')
  })

  it('exits 1 with the loader message when a plugin config fails its schema', async () => {
    const dir = await project({ 'rein.yaml': config('examples.yaml', "\n    config: { maxAttempts: 'lots' }"), 'examples.yaml': GOOD })
    const { code, stdout, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^✗ .*rein\.yaml:4 plugins\[0\] \(@rein\/plugin-retry\): .*maxAttempts/)
  })

  it('prints every problem of the config at once, one line each in file order', async () => {
    const dir = await project({
      'rein.yaml': `plugins:\n  - use: '@rein/plugin-retry'\n    config: { maxAttempts: 'lots' }\n  - use: ./nope.mjs\ntools:\n  - use: ${join(FIXTURES, 'greet-tools.mjs')}\n`,
    })
    const { code, stdout, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stdout).toBe('')
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^✗ .*rein\.yaml:3 plugins\[0\] \(@rein\/plugin-retry\): maxAttempts must be a number \(got "lots"\)$/)
    expect(lines[1]).toMatch(/^✗ .*rein\.yaml:4 plugins\[1\] \(\.\/nope\.mjs\): cannot find the local file /)
    expect(lines[2]).toBe(`2 problems in ${join(dir, 'rein.yaml')}`)
  })

  it('warns about an optional entry that fails, and passes without it', async () => {
    const dir = await project({ 'rein.yaml': `tools:\n  - use: ${join(FIXTURES, 'greet-tools.mjs')}\n  - { use: ./nope.mjs, optional: true }\n` })
    const { code, stdout, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.OK)
    expect(stderr).toMatch(/^! warning: .*rein\.yaml:\d+ tools\[1\] \(\.\/nope\.mjs\): cannot find the local file .*; the entry is optional, so the harness runs without it\n$/)
    expect(stdout).toContain('all configs valid')
  })

  it('passes the demo harness', async () => {
    const { code, stdout } = await rein(['check', '-c', demoConfig()])
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('3 example tool call(s) in 1 file(s) match')
  })
})
