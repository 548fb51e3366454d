/**
 * The quickstart runs end to end as a user runs it — `node run.mjs`, from another folder, with
 * no key — and prints each call and then the run's answer: the read goes through, the write is
 * denied by the permission guard, and the notes are left as they were.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const RUN = fileURLToPath(new URL('../run.mjs', import.meta.url))
const NOTES = fileURLToPath(new URL('../workspace/notes.md', import.meta.url))
const LOADER_BUILD = fileURLToPath(new URL('../../../packages/loader/dist/src/index.bundle.js', import.meta.url))

/** `node run.mjs` in a temp folder, without a model key: the offline stand-in answers. */
function runExample(): Promise<{ code: number, stdout: string, stderr: string }> {
  const { DEEPSEEK_API_KEY: _key, ...env } = process.env
  return new Promise((resolve) => {
    execFile(process.execPath, [RUN], { cwd: tmpdir(), env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

describe('the quickstart', () => {
  it('runs a harness built in code and prints the calls, then the answer', async () => {
    if (!existsSync(LOADER_BUILD)) throw new Error('the packages are not built: run npx -y pnpm@10 build first (run.mjs imports their bundles)')
    const before = readFileSync(NOTES, 'utf8')
    const { code, stdout, stderr } = await runExample()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout.replace(/ in \d+ms/g, ' in Nms').split('\n')).toEqual([
      '  read_file -> ok in Nms',
      '  write_file -> TOOL_DENIED in Nms',
      'Your notes list 3 things: buy milk; call Ada about the review; renew the domain. ' +
        'I left the file as it is (Error: this harness only reads).',
      '',
    ])
    expect(readFileSync(NOTES, 'utf8')).toBe(before)
  })
})
