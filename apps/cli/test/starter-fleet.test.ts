/**
 * The starter on a fleet: a worker loads its harness once and shares it between runs, so the
 * offline model of provider.ts must answer each session from its own conversation. Two
 * sessions, and a second task in the first, each get the model's reads, on real Redis and
 * PostgreSQL.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { memorySession } from '@rein/agent'
import { loadHarness } from '@rein/loader'
import { createWorker } from '@rein/queue'
import { startPostgres, startRedis, whyNoPostgres, whyNoRedis } from '@rein/testing'
import { ExitCodes } from '../src/exit-codes.js'
import { CLI_ROOT, rein } from './helpers.js'

const missing = [whyNoRedis(), whyNoPostgres()].filter((why) => why !== undefined)
describe.skipIf(missing.length > 0)(`the starter under a worker${missing.length ? ` (skipped: ${missing.join('; ')})` : ''}`, () => {
  it('answers every session with its reads, not only the first one the worker ran', async () => {
    // Under .rein/ (ignored by git) in this package, so that the starter's imports resolve from here.
    await mkdir(join(CLI_ROOT, '.rein'), { recursive: true })
    const dir = await mkdtemp(join(CLI_ROOT, '.rein', 'fleet-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    expect((await rein(['init'], dir)).code).toBe(ExitCodes.OK)
    const key = process.env.DEEPSEEK_API_KEY
    delete process.env.DEEPSEEK_API_KEY
    const [redis, postgres] = await Promise.all([startRedis(), startPostgres()])
    const harness = await loadHarness(join(dir, 'rein.yaml'), { session: memorySession(), env: {} })
    try {
      const worker = await createWorker({ redis: redis.url, postgres: postgres.url, queue: 'starter', harness })
      try {
        const submit = (session: string, task: string) => rein(['submit', '--queue', 'starter', '--session', session, task], dir, { REIN_REDIS_URL: redis.url })
        for (const [session, task, ids] of [['one', 'first task', ['o1', 'o2']], ['two', 'second task', ['o1', 'o2']], ['one', 'again', ['o3', 'o4']]] as const) {
          const { code, stdout, stderr } = await submit(session, task)
          expect(code, stderr).toBe(ExitCodes.OK)
          expect(stderr).toContain(`→ list_dir (${ids[0]})`)
          expect(stderr).toContain(`✓ read_file (${ids[1]})`)
          expect(stdout).toContain(`The offline model cannot do "${task}"`)
        }
      } finally {
        await worker.close()
      }
    } finally {
      await harness.dispose()
      await Promise.all([redis.close(), postgres.close()])
      if (key !== undefined) process.env.DEEPSEEK_API_KEY = key
    }
  }, 120_000)
})
