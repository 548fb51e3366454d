/** `rein trace` as a command: where the page goes, and a session that is not there. */
import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { project, rein } from './helpers.js'
import { sessionText } from './sessions.js'

describe('rein trace', () => {
  it('writes the page next to the session by default, or where -o says', async () => {
    const dir = await project({ 'runs/a.jsonl': sessionText([[{ id: 'x', start: 0, end: 5 }, { id: 'y', start: 1, end: 3 }]]) })
    expect(await rein(['trace', 'runs/a.jsonl'], dir)).toEqual({ code: ExitCodes.OK, stdout: `wrote ${join('runs', 'a.html')}: 2 calls in 1 batch\n`, stderr: '' })
    expect(await readFile(join(dir, 'runs/a.html'), 'utf8')).toMatch(/^<!doctype html>/)
    const out = await rein(['trace', join(dir, 'runs/a.jsonl'), '-o', 'page.html'], dir)
    expect(out.stdout).toBe('wrote page.html: 2 calls in 1 batch\n')
  })

  it('says when the session has no times', async () => {
    const dir = await project()
    await writeFile(join(dir, 's.jsonl'), sessionText([[{ id: 'x', start: 0, end: 5 }]], { timed: false }))
    expect((await rein(['trace', 's.jsonl'], dir)).stdout).toContain('(no timestamps in the session: laid out by entry order)')
  })

  it('refuses a session path that is a FIFO at once, naming it, instead of waiting on it', async () => {
    const dir = await project()
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')])
    const { code, stderr } = await rein(['trace', 'pipe.jsonl'], dir)
    expect(code).not.toBe(ExitCodes.OK)
    expect(stderr).toContain(`${join(dir, 'pipe.jsonl')} is a FIFO (named pipe), not a regular file`)
  })

  it('refuses an output that is the session itself, and leaves the session as it was', async () => {
    const text = sessionText([[{ id: 'x', start: 0, end: 5 }]])
    const dir = await project({ 'a.jsonl': text })
    const { code, stderr } = await rein(['trace', 'a.jsonl', '-o', 'a.jsonl'], dir)
    expect(code).toBe(ExitCodes.USAGE)
    expect(stderr).toBe('rein trace: the page would overwrite the session a.jsonl; give -o another file\n')
    expect(await readFile(join(dir, 'a.jsonl'), 'utf8')).toBe(text)
  })

  it('exits 1 naming the path when the session does not exist', async () => {
    const dir = await project()
    const { code, stderr } = await rein(['trace', 'missing.jsonl'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toContain(`no session file at ${join(dir, 'missing.jsonl')}`)
  })
})
