/**
 * `rein run` and Ctrl-C, with real processes and real signals: the first SIGINT mid-batch
 * aborts cleanly (exit 130, a valid session); a second one exits at once, and the next run
 * repairs the session it left.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buildMessages, type SessionEntry } from '@rein/agent'
import { validateTranscript } from '@rein/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES, project, requireBuild, spawnRein } from './helpers.js'

const config = (tool: string) => `
provider: { use: ${join(FIXTURES, 'slow-provider.mjs')}, config: { tool: ${tool} } }
tools:
  - use: ${join(FIXTURES, 'slow-tools.mjs')}
session: ./session.jsonl
`

async function session(dir: string): Promise<SessionEntry[]> {
  return (await readFile(join(dir, 'session.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SessionEntry)
}

const codes = (entries: SessionEntry[]) =>
  Object.fromEntries(entries.flatMap((e) => (e.type === 'tool/result' ? [[e.message.toolCallId, e.code ?? 'ok']] : [])))

describe('rein run and Ctrl-C', () => {
  beforeAll(requireBuild)

  it('aborts a batch in flight on SIGINT: exit 130, every call answered, the session valid', async () => {
    const dir = await project({ 'rein.yaml': config('wait') })
    const run = spawnRein(['run', 'wait for me'], dir)
    await run.waitFor(/body a1\n[^]*body a2\n|body a2\n[^]*body a1\n/)
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(130)
    expect(run.stdout()).toContain('aborted: every started call has its result')

    const entries = await session(dir)
    expect(validateTranscript(buildMessages(entries))).toEqual([])
    expect(codes(entries)).toEqual({ a1: 'ABORTED', a2: 'ABORTED', a3: 'ABORTED_BEFORE_DISPATCH' })
    expect(entries.at(-1)).toMatchObject({ type: 'turn/end', turn: 1, outcome: 'aborted' })
  })

  it('exits at once on a second SIGINT, and the next run repairs the session', async () => {
    const dir = await project({ 'rein.yaml': config('stubborn') })
    const run = spawnRein(['run', 'never stops'], dir)
    await run.waitFor(/body a1\n[^]*body a2\n|body a2\n[^]*body a1\n/)
    run.child.kill('SIGINT')
    await run.waitFor(/interrupted: no new calls start/)
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(130)
    expect(run.stderr()).toContain('exiting now')
    expect(Object.keys(codes(await session(dir)))).toEqual([])

    const resumed = spawnRein(['run', 'carry on'], dir)
    expect(await resumed.exited, resumed.stderr()).toBe(0)
    expect(resumed.stdout()).toContain('done')
    const entries = await session(dir)
    expect(validateTranscript(buildMessages(entries))).toEqual([])
    // a3 was logged as started (settled ABORTED_BEFORE_DISPATCH at the first Ctrl-C), but its
    // result waited behind a1 and a2 in the commit order: the log cannot tell it never ran.
    expect(codes(entries)).toEqual({ a1: 'TOOL_OUTCOME_UNKNOWN', a2: 'TOOL_OUTCOME_UNKNOWN', a3: 'TOOL_OUTCOME_UNKNOWN' })
  })
})
