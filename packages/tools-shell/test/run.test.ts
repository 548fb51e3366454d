import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { run, type RunOptions } from '../src/run.js'
import { gone, isAlive, procOf } from './helpers.js'

async function options(over: Partial<RunOptions>): Promise<RunOptions> {
  const cwd = await mkdtemp(path.join(tmpdir(), 'rein-run-'))
  onTestFinished(() => rm(cwd, { recursive: true, force: true }))
  return { shell: '/bin/bash', command: 'true', cwd, env: {}, signal: new AbortController().signal, killGraceMs: 50, keepBytes: 1000, ...over }
}

describe('run', () => {
  it('rejects with SPAWN_FAILED when the shell cannot be started', async () => {
    await expect(run(await options({ shell: '/nonexistent/bash' }))).rejects.toMatchObject({ code: 'SPAWN_FAILED' })
  })

  it('does not start anything when the signal is already aborted', async () => {
    let spawned = false
    const opts = await options({ signal: AbortSignal.abort(), onSpawn: () => { spawned = true } })
    expect(() => run(opts)).toThrow(/abort/i)
    expect(spawned).toBe(false)
  })

  it('settles even when a process outside its session keeps the output open', async () => {
    // The detached process writes its pid once it is in its own session; bash waits for that.
    const command = "setsid sh -c 'echo $$ > pid; exec sleep 1000' & while [ ! -s pid ]; do :; done; cat pid"
    const outcome = await run(await options({ command }))
    const escaped = procOf(Number(outcome.stdout.kept(1000).head.trim()))
    onTestFinished(async () => {
      if (isAlive(escaped)) process.kill(escaped.pid, 'SIGKILL')
      expect(await gone([escaped])).toEqual([])
    })
    expect(outcome.exitCode).toBe(0)
    expect(outcome.survivors).toEqual([])
    expect(isAlive(escaped)).toBe(true) // another session: out of reach (a known limit)
  })
})
