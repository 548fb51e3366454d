/** `rein run` in process: the answer, the recorded session, and a harness that cannot run. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { FIXTURES, project, rein } from './helpers.js'

describe('rein run', () => {
  it('runs the task, prints each call and the answer, and the agent records timing in the session', async () => {
    const dir = await project({
      'rein.yaml': `provider: { use: ${join(FIXTURES, 'slow-provider.mjs')}, config: { tool: note } }\ntools:\n  - use: ${join(FIXTURES, 'slow-tools.mjs')}\n`,
    })
    const { code, stdout, stderr } = await rein(['run', '--session', 'runs/s.jsonl', '--summary', 'take', 'notes'], dir)
    expect(code, stderr).toBe(ExitCodes.OK)
    expect(stdout).toMatch(/^model: working\nturn 1\n/)
    expect(stdout).toMatch(/▶ a1 note \{\} {2}· exclusive: a barrier\n {2}✓ a1 note ok \d+ms\n/)
    expect(stdout).toContain('turn 1 committed: 3 calls ran as [a1] → [a2] → [a3]')
    expect(stdout).toContain('answer:\ndone\n')
    expect(stdout).toMatch(/calls {8}3 \(3 ok\)/)
    expect(stderr).toBe(`session: ${join('runs', 's.jsonl')}\n`)
    const entries = (await readFile(join(dir, 'runs/s.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
    expect(entries[0]).toMatchObject({ type: 'message', message: { role: 'user', content: 'take notes' } })
    expect(entries.filter((e) => e.type === 'tool/call').map((e) => e.mode)).toEqual(['exclusive', 'exclusive', 'exclusive'])
    for (const { timing, at } of entries.filter((e) => e.type === 'tool/result')) {
      expect([timing.startedAt, timing.bodyStartedAt, timing.bodyEndedAt, timing.finalAt, at].every((t, i, all) => typeof t === 'number' && (i === 0 || t >= all[i - 1]))).toBe(true)
    }
  })

  it('exits 1 with the loader\'s reason when the file has no provider', async () => {
    const dir = await project({ 'rein.yaml': `tools:\n  - use: ${join(FIXTURES, 'slow-tools.mjs')}\n` })
    const { code, stderr } = await rein(['run', 'anything'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toMatch(/^rein run: .*rein\.yaml: no provider: add a "provider: \{ use, config \}" section/)
  })

  it('prints a warning for an optional entry that failed, then runs without it', async () => {
    const dir = await project({
      'rein.yaml': `provider: { use: ${join(FIXTURES, 'slow-provider.mjs')}, config: { tool: note } }\n` +
        `plugins:\n  - { use: ./absent.mjs, optional: true }\ntools:\n  - use: ${join(FIXTURES, 'slow-tools.mjs')}\n`,
    })
    const { code, stdout, stderr } = await rein(['run', 'take', 'notes'], dir)
    expect(code, stderr).toBe(ExitCodes.OK)
    expect(stderr).toMatch(/^rein run: warning: .*rein\.yaml:3 plugins\[0\] \(\.\/absent\.mjs\): cannot find the local file .*; the entry is optional, so the harness runs without it\n$/)
    expect(stdout).toContain('answer:\ndone\n')
  })

  it('exits 1 with one line per problem when the file has several', async () => {
    const dir = await project({ 'rein.yaml': 'plugins:\n  - use: ./a.mjs\n  - use: ./b.mjs\nagent: { maxTurns: 0 }\n' })
    const { code, stderr } = await rein(['run', 'anything'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr.trim().split('\n').map((line) => line.replace(/:.*?rein\.yaml/, ': rein.yaml').replace(/ \(paths in .*$/, ''))).toEqual([
      `rein run: rein.yaml:2 plugins[0] (./a.mjs): cannot find the local file ${join(dir, 'a.mjs')}`,
      `rein run: rein.yaml:3 plugins[1] (./b.mjs): cannot find the local file ${join(dir, 'b.mjs')}`,
      'rein run: rein.yaml:4 agent: maxTurns must be a positive integer (got 0)',
    ])
  })
})
