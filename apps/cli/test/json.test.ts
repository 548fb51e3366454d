/** `--json` on check, chains and run: one JSON document on stdout, `ok` first, problems with their place. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { FIXTURES, project, rein } from './helpers.js'

const tools = `tools:\n  - use: ${join(FIXTURES, 'greet-tools.mjs')}\n`

describe('--json', () => {
  it('check: counts, warnings and example problems with file and line', async () => {
    const dir = await project({
      'rein.yaml': `plugins:\n  - use: '@rein/plugin-retry'\n${tools}examples: [./ex.yaml]\n`,
      'ex.yaml': '- tool: greet\n  arguments: { name: 42 }\n',
    })
    const { code, stdout, stderr } = await rein(['check', '--json'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toContain('/name: must be string')
    expect(JSON.parse(stdout)).toEqual({
      ok: false, file: join(dir, 'rein.yaml'), provider: false, plugins: 1, toolSources: 1, tools: 1, warnings: [],
      examples: { files: 1, checked: 1, inline: 0 },
      problems: [{ message: `${join(dir, 'ex.yaml')}:2 example[0] greet: /name: must be string`, file: join(dir, 'ex.yaml'), line: 2, tool: 'greet' }],
    })
  })

  it('check: a config that does not load gives every problem with its line and entry', async () => {
    const dir = await project({ 'rein.yaml': "plugins:\n  - use: '@rein/plugin-retry'\n    config: { maxAttempts: 'lots' }\n" })
    const { code, stdout } = await rein(['check', '--json'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    const doc = JSON.parse(stdout)
    expect(doc).toMatchObject({ ok: false, file: join(dir, 'rein.yaml') })
    expect(doc.problems).toEqual([expect.objectContaining({ line: 3, entry: 'plugins[0] (@rein/plugin-retry)', message: expect.stringContaining('maxAttempts must be a number') })])
  })

  it('chains: entries in file order and each hook with its plugins, outermost first', async () => {
    const dir = await project({ 'rein.yaml': `plugins:\n  - use: '@rein/plugin-retry'\n${tools}` })
    const { code, stdout } = await rein(['chains', '--json'], dir)
    expect(code).toBe(ExitCodes.OK)
    const doc = JSON.parse(stdout)
    expect(doc).toMatchObject({ ok: true, file: join(dir, 'rein.yaml'), entries: ['@rein/plugin-retry', join(FIXTURES, 'greet-tools.mjs')], warnings: [] })
    expect(doc.chains).toContainEqual({ hook: 'tools/execute', plugins: ['retry'], inner: 'tool body' })
  })

  it('chains: a failure to load is a JSON document too, and the text stays on stderr', async () => {
    const dir = await project({ 'rein.yaml': 'plugins:\n  - use: ./absent.mjs\n' })
    const { code, stdout, stderr } = await rein(['chains', '--json'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toMatch(/^rein chains: .*cannot find the local file/)
    expect(JSON.parse(stdout)).toEqual({ ok: false, problems: [expect.objectContaining({ line: 2, message: expect.stringContaining('absent.mjs') })] })
  })

  it('run: no progress on stdout, then the outcome, the answer, every call and the totals', async () => {
    const dir = await project({ 'rein.yaml': `provider: { use: ${join(FIXTURES, 'slow-provider.mjs')}, config: { tool: note } }\ntools:\n  - use: ${join(FIXTURES, 'slow-tools.mjs')}\n` })
    const { code, stdout } = await rein(['run', '--json', 'take', 'notes'], dir)
    expect(code).toBe(ExitCodes.OK)
    const doc = JSON.parse(stdout)
    expect(doc).toMatchObject({ ok: true, outcome: 'completed', answer: 'done', session: null })
    expect(doc.calls.map((c: { id: string, outcome: string }) => `${c.id} ${c.outcome}`)).toEqual(['a1 ok', 'a2 ok', 'a3 ok'])
    expect(doc.calls[0]).toEqual({ turn: 1, id: 'a1', name: 'note', outcome: 'ok', durationMs: expect.any(Number) })
    expect(doc.summary).toMatchObject({ calls: 3, outcomes: { ok: 3 }, retried: 0, cacheHits: 0, spilled: 0, largestGroup: 1 })
  })
})
