/**
 * `rein submit`, `rein approvals` and `rein approve` on a fleet, in process, on real Redis and
 * PostgreSQL with a worker of the harness in rein.yaml (which parks by default): a run that parks
 * exits 3 and lists its requests; the answers are written to the session in PostgreSQL; the last
 * one queues the continuation, which the worker runs to the end.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadHarness } from '@rein/loader'
import { createWorker } from '@rein/queue'
import { startPostgres, startRedis } from '@rein/testing'
import { ExitCodes } from '../src/exit-codes.js'
import { APPROVAL_REASON as REASON, approvalConfig, project, rein } from './helpers.js'

// The worker parks by default; the session is the run's, in PostgreSQL.
const CONFIG = approvalConfig({ park: false, session: null })

// Needs Redis and PostgreSQL (`.ci/run` installs them); without them `startRedis`/`startPostgres` fail saying what is missing.
describe('approvals on a fleet, from the command line', () => {
  it('submit exits 3 with the requests; approvals lists them; approve answers, and the last answer queues the continuation', async () => {
    const [redis, postgres] = await Promise.all([startRedis(), startPostgres()])
    const dir = await project({ 'rein.yaml': CONFIG })
    const harness = await loadHarness(join(dir, 'rein.yaml'))
    const worker = await createWorker({ redis: redis.url, postgres: postgres.url, queue: 'cli', harness })
    const fleet = ['--redis', redis.url, '--postgres', postgres.url, '--queue', 'cli']
    try {
      const parked = await rein(['submit', '--queue', 'cli', '--redis', redis.url, '--session', 'f-1', 'do it'], dir)
      expect(parked.code, parked.stderr).toBe(ExitCodes.AWAITING_APPROVAL)
      expect(parked.stderr).toContain('waiting for approval (the worker is free; any worker goes on once these are answered):')
      expect(parked.stderr).toMatch(/apr_\S+ {2}"shell" \(call b1\): shell commands need a person/)
      expect(parked.stderr).toMatch(/answer: rein approve apr_\S+ --session f-1 --redis <url> --postgres <url> {3}\(add --deny/)

      const listed = await rein(['approvals', '--session', 'f-1', '--postgres', postgres.url, '--json'], dir)
      expect(listed.code, listed.stderr).toBe(ExitCodes.OK)
      const { approvals } = JSON.parse(listed.stdout) as { approvals: { id: string, callId: string, arguments: unknown }[] }
      expect(approvals.map((a) => [a.callId, a.arguments])).toEqual([['b1', { cmd: 'ls' }], ['b2', { cmd: 'pwd' }]])
      const [b1, b2] = approvals.map((a) => a.id) as [string, string]
      expect(listed.stdout).not.toContain(postgres.url)

      const first = await rein(['approve', b1, '--session', 'f-1', '--by', 'alice', ...fleet], dir)
      expect(first.code, first.stderr).toBe(ExitCodes.OK)
      expect(first.stderr).toContain('the run goes on once this one is answered too:')
      expect(first.stdout).toBe('') // no continuation yet

      const twice = await rein(['approve', b1, '--session', 'f-1', ...fleet], dir)
      expect(twice.code).toBe(ExitCodes.FAILURE)
      expect(twice.stderr).toContain(`approval request "${b1}" (call b1, tool "shell") is already answered (allow-once by alice)`)
      const unknown = await rein(['approve', 'apr_forged', '--session', 'f-1', ...fleet], dir)
      expect(unknown.code).toBe(ExitCodes.FAILURE)
      expect(unknown.stderr).toContain('there is no approval request "apr_forged" in session "f-1" (PostgreSQL at 127.0.0.1:')
      const elsewhere = await rein(['approve', b2, '--session', 'f-2', ...fleet], dir)
      expect(elsewhere.code).toBe(ExitCodes.FAILURE)
      expect(elsewhere.stderr).toContain(`there is no approval request "${b2}" in session "f-2"`)
      expect(elsewhere.stderr).toContain('holds nothing: no run was made in it (is the session id right?)')
      expect((await rein(['approvals', '--session', 'f-3', '--postgres', postgres.url], dir)).stdout).toContain(': it holds nothing (no run was made in it; is the session id right?)')

      const last = await rein(['approve', b2, '--deny', '--session', 'f-1', '--by', 'bob', ...fleet], dir)
      expect(last.code, last.stderr).toBe(ExitCodes.OK)
      expect(last.stdout).toMatch(/^run-[0-9a-f-]+\n$/)
      expect(last.stderr).toContain('the run goes on as job run-')

      // Following the session: the continuation queued above (or, once it has ended, one that finds it finished).
      const followed = await rein(['submit', '--queue', 'cli', '--redis', redis.url, '--session', 'f-1', '--continue'], dir)
      expect(followed.code, followed.stderr).toBe(ExitCodes.OK)
      expect(followed.stdout).toBe(`b1: ran ls | b2: Error: "shell" was denied at approval (${REASON})\n`)
      const none = await rein(['approvals', '--session', 'f-1', '--postgres', postgres.url], dir)
      expect(none.stdout).toMatch(/^no approval requests wait in session "f-1" \(PostgreSQL at 127\.0\.0\.1:\d+\/postgres\)\n$/)
    } finally {
      await worker.close()
      await harness.dispose()
      await Promise.all([redis.close(), postgres.close()])
    }
  }, 90_000)

  it('names what is missing: a session id with --postgres, an id that is no id', async () => {
    expect(await rein(['approvals', '--postgres', 'postgres://u@127.0.0.1:1/db'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('--session <id> is required with --postgres or --redis'),
    })
    expect(await rein(['approve', 'apr_x', '--redis', 'redis://127.0.0.1:1'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('--session <id> is required'),
    })
    expect(await rein(['approve', 'a b', '--session', 's', '--postgres', 'postgres://u@127.0.0.1:1/db'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('"a b" is not an approval request id'),
    })
    expect(await rein(['submit', '--session', 's', '--continue', 'task'], undefined, { REIN_REDIS_URL: 'redis://127.0.0.1:1' })).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('--continue takes no task'),
    })
  })
})
