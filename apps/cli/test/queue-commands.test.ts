import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { createHarness } from '@rein/loader'
import { createWorker } from '@rein/queue'
import { callMessage, echoTool, scripted, startPostgres, startRedis, textMessage, toolCall, whyNoPostgres, whyNoRedis } from '@rein/testing'
import type { Provider } from '@rein/kernel'
import { ExitCodes } from '../src/exit-codes.js'
import { project, rein } from './helpers.js'

describe('rein worker, submit, cancel and db: the command lines', () => {
  it.each(['worker', 'submit', 'cancel', 'db'])('rein %s --help says how to name the servers', async (name) => {
    const { code, stdout } = await rein([name, '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(name === 'db' ? /--postgres <url>[^-]*REIN_DATABASE_URL/ : /--redis <url>[^-]*REIN_REDIS_URL/)
  })

  it('asks for the servers when neither the option nor the variable names them', async () => {
    expect(await rein(['submit', '--session', 's', 'task'])).toMatchObject({
      code: 2, stderr: 'rein submit: no Redis to use: pass --redis redis://host:6379 or set REIN_REDIS_URL\n',
    })
    expect(await rein(['worker'], undefined, { REIN_REDIS_URL: 'redis://127.0.0.1:1' })).toMatchObject({
      code: 2, stderr: 'rein worker: no PostgreSQL to use: pass --postgres postgres://user:password@host:5432/db or set REIN_DATABASE_URL\n',
    })
    expect((await rein(['submit', 'task'], undefined, { REIN_REDIS_URL: 'redis://127.0.0.1:1' })).stderr).toMatch(/--session <id> is required/)
  })

  it('rein submit -c reads that the file is there: a wrong path is refused before anything is queued', async () => {
    const dir = await project({ 'rein.yaml': 'plugins: []\n' })
    const wrong = await rein(['submit', '-c', 'rein.yml', '--session', 's', 'task'], dir, { REIN_REDIS_URL: 'redis://127.0.0.1:1' })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain(`rein submit: -c ${dir}/rein.yml: no such readable file; the run uses the harness its worker loaded`)
  })

  it('loads the harness once before anything else: one without a provider fails the start, naming the file', async () => {
    const dir = await project({
      'rein.yaml': 'tools:\n  - use: ./tool.mjs\n',
      'tool.mjs': "export const name = 'none'\nexport function apply() {}\n",
    })
    const { code, stderr } = await rein(['worker', '--redis', 'redis://127.0.0.1:1', '--postgres', 'postgres://u:p@127.0.0.1:1/db'], dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(/^rein worker: \S*rein\.yaml: no provider: add a "provider: \{ use, config \}" section, or pass \{ provider \} to loadHarness\n$/)
  })

  it('says where Redis could not be reached, never with its password', async () => {
    const dir = await project({
      'rein.yaml': 'provider: { use: ./model.mjs }\n',
      'model.mjs': "export const createProvider = () => ({ generate: async () => ({ role: 'assistant', content: 'hi' }) })\n",
    })
    const { code, stderr } = await rein(['worker', '--redis', 'redis://:sekret-pw@127.0.0.1:1', '--postgres', 'postgres://u:sekret-pw@127.0.0.1:1/db'], dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(/^rein worker: createWorker: cannot use Redis at 127\.0\.0\.1:1\/0 \(/)
    expect(stderr).not.toContain('sekret-pw')
  })
})

const missing = [whyNoRedis(), whyNoPostgres()].filter((why) => why !== undefined)
describe.skipIf(missing.length > 0)(`with Redis and PostgreSQL${missing.length ? ` (skipped: ${missing.join('; ')})` : ''}`, () => {
  it('rein db migrate creates the session table once; rein submit follows a run live and prints its answer', async () => {
    const [redis, postgres] = await Promise.all([startRedis(), startPostgres()])
    try {
      const env = { REIN_REDIS_URL: redis.url, REIN_DATABASE_URL: postgres.url }
      expect((await rein(['db', 'migrate'], undefined, env)).stdout).toMatch(/^"public"\."rein_session_entries" at 127\.0\.0\.1:\d+\/postgres: created\n$/)
      expect((await rein(['db', 'migrate'], undefined, env)).stdout).toMatch(/: already there\n$/)

      const worker = await createWorker({
        redis: redis.url, postgres: postgres.url, queue: 'cli',
        harness: (session) => createHarness({
          provider: scripted([callMessage([toolCall('c1', 'echo', { say: 'hi' })], 'Echoing first.'), textMessage('all done')]),
          tools: [{ name: 'echoes', inject: ['tools'], apply: (ctx: Context) => { ctx.tools.register(echoTool()) } }],
          session,
        }),
      })
      const submitted = await rein(['submit', '--queue', 'cli', '--session', 'cli-1', 'say hi'], undefined, env)
      await worker.close()
      expect(submitted.code).toBe(0)
      expect(submitted.stdout).toBe('all done\n')
      expect(submitted.stderr).toMatch(
        /^ {2}started on .+\n {2}model: Echoing first\.\n {2}→ echo \(c1\)\n {2}✓ echo \(c1\) \d+ ms\n {2}turn 1: 1 call committed\nanswer:\nrein submit: completed on .+\n$/)

      const queued = await rein(['submit', '--queue', 'cli', '--session', 'cli-2', '--no-wait', 'later'], undefined, env)
      expect(queued.stdout).toMatch(/^run-[0-9a-f-]+\n$/)
      const busy = await rein(['submit', '--queue', 'cli', '--session', 'cli-2', '--no-wait', 'again'], undefined, env)
      expect(busy.code).toBe(1)
      expect(busy.stderr).toMatch(/^rein submit: session "cli-2" already has a run queued or running \(job run-/)
      expect(await rein(['cancel', '--queue', 'cli', '--session', 'cli-2'], undefined, env)).toMatchObject({
        code: 0, stdout: `session "cli-2": the run ${queued.stdout.trim()} was still queued; it is removed and will not start\n`,
      })
      expect(await rein(['cancel', '--queue', 'cli', '--session', 'cli-2'], undefined, env)).toMatchObject({
        code: 1, stderr: 'rein cancel: session "cli-2" has no run queued or running\n',
      })
    } finally {
      await Promise.all([redis.close(), postgres.close()])
    }
  }, 60_000)

  it('rein submit exits 4 when someone else cancels the run it follows (130 is its own Ctrl-C)', async () => {
    const [redis, postgres] = await Promise.all([startRedis(), startPostgres()])
    try {
      const env = { REIN_REDIS_URL: redis.url, REIN_DATABASE_URL: postgres.url }
      let asked!: () => void
      const modelAsked = new Promise<void>((resolve) => { asked = resolve })
      const waitsForCancel: Provider = {
        generate: ({ signal }) => new Promise((_, reject) => {
          asked()
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
        }),
      }
      const worker = await createWorker({ redis: redis.url, postgres: postgres.url, queue: 'cli', harness: (session) => createHarness({ provider: waitsForCancel, session }) })
      try {
        const following = rein(['submit', '--queue', 'cli', '--session', 'cli-c', 'wait'], undefined, env)
        await modelAsked
        expect((await rein(['cancel', '--queue', 'cli', '--session', 'cli-c'], undefined, env)).code).toBe(0)
        const { code, stderr } = await following
        expect(stderr).toMatch(/\nrein submit: aborted \(the run was cancelled\) on .+\n$/)
        expect(code).toBe(ExitCodes.CANCELLED)
        expect(ExitCodes.CANCELLED).not.toBe(ExitCodes.INTERRUPTED)
      } finally {
        await worker.close()
      }
    } finally {
      await Promise.all([redis.close(), postgres.close()])
    }
  }, 60_000)
})
