/**
 * `rein demo`, spawned as a user runs it: it exits 0, shows every behaviour it promises, and
 * leaves a session that rebuilds into a transcript a provider would accept.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buildMessages, type SessionEntry } from '@rein/agent'
import { validateTranscript } from '@rein/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { project, requireBuild, spawnRein } from './helpers.js'

describe('rein demo', () => {
  beforeAll(requireBuild)

  it('runs the scripted session through every plugin, exits 0 and leaves a valid session', async () => {
    const dir = await project()
    const run = spawnRein(['demo', '--fast', '--session', 'out/demo.jsonl'], dir)
    const code = await run.exited
    const out = run.stdout()
    expect(code, `${out}\n${run.stderr()}`).toBe(0)

    expect(out).toContain('tools/execute       cache > retry > timeout-policy > (tool body)')
    expect(out).toMatch(/ran as \[c1 c2 c3\] → \[c4\] → \[c5\] → \[c6\]/)
    expect(out).toContain('exclusive: a barrier')
    expect(out).toMatch(/✗ c6 delete_note TOOL_DENIED .*the demo never deletes anything/)
    expect(out).toMatch(/✗ c8 slow_report TOOL_TIMEOUT .*timed out after 500ms/)
    expect(out).toMatch(/✓ c7 fetch_status ok .*retried: 2 attempts/)
    expect(out).toMatch(/✓ c9 dump_log ok .*spilled/)
    expect(out).toMatch(/✓ c11 fetch_status ok .*cache hit/)
    expect(out).toMatch(/✓ c12 read_spilled ok/)
    expect(out).toMatch(/calls {8}12 \(10 ok, 1 TOOL_DENIED, 1 TOOL_TIMEOUT\)/)
    expect(out).toContain('session      out/demo.jsonl')

    const entries = (await readFile(join(dir, 'out/demo.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SessionEntry)
    expect(validateTranscript(buildMessages(entries))).toEqual([])
    const results = entries.filter((e) => e.type === 'tool/result')
    expect(results.map((e) => e.message.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10', 'c11', 'c12'])
    expect(results.find((e) => e.message.toolCallId === 'c10')?.message.content[0]).toEqual({ type: 'text', text: '{"lines":400,"bytes":22799}' })
    for (const entry of entries) expect(typeof (entry as { at?: unknown }).at).toBe('number')

    const audit = (await readFile(join(dir, '.rein/demo-audit.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
    expect(audit).toHaveLength(12)
  })
})
