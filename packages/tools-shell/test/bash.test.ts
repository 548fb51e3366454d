import { describe, expect, it } from 'vitest'
import { shell, textOf, valueOf } from './helpers.js'

describe('bash', () => {
  it('runs a command and returns its exit code, stdout and stderr separately', async () => {
    const sh = await shell()
    const result = await sh.call({ command: 'echo out; echo err >&2' })
    expect(valueOf(result)).toEqual({
      exitCode: 0, stdout: 'out\n', stderr: 'err\n', stdoutBytes: 4, stderrBytes: 4, stdoutOmittedBytes: 0, stderrOmittedBytes: 0,
    })
    expect(textOf(result)).toBe('out\n[stderr]\nerr\n[exit code 0]')
  })

  it('treats a non-zero exit as a successful call whose value says so', async () => {
    const sh = await shell()
    const result = await sh.call({ command: 'echo failing >&2; exit 3' })
    expect(result.isError).toBe(false)
    expect(valueOf(result)).toMatchObject({ exitCode: 3, stderr: 'failing\n' })
    expect(textOf(result)).toContain('[exit code 3]')
  })

  it('reports a command ended by a signal it did not choose', async () => {
    const sh = await shell()
    const result = await sh.call({ command: 'echo before; kill -KILL $$' })
    expect(valueOf(result)).toMatchObject({ exitCode: null, signal: 'SIGKILL', stdout: 'before\n' })
    expect(textOf(result)).toContain('[ended by SIGKILL]')
  })

  it('gives commands an empty stdin', async () => {
    const sh = await shell()
    expect(valueOf(await sh.call({ command: 'cat; echo done' }))).toMatchObject({ exitCode: 0, stdout: 'done\n' })
  })
})
