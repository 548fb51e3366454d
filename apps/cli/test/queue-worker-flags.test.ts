import { describe, expect, it } from 'vitest'
import { project, rein } from './helpers.js'

/** `rein worker` flags out of range: usage errors (exit 2) naming the flag, before anything is loaded or connected. */
describe('rein worker: its flags, checked before it starts', () => {
  const servers = ['--redis', 'redis://127.0.0.1:1', '--postgres', 'postgres://u:p@127.0.0.1:1/db']
  const worker = async (...flags: string[]) => rein(['worker', ...servers, ...flags], await project({}))

  it('refuses a lock duration or stalled interval a timer cannot wait (it would fire after 1 ms: a busy loop)', async () => {
    expect(await worker('--lock-duration', '1000000000000000000000')).toMatchObject({
      code: 2, stderr: 'rein worker: --lock-duration must be from 100 to 2147483647, not 1000000000000000000000\n',
    })
    expect(await worker('--stalled-interval', '3000000000')).toMatchObject({
      code: 2, stderr: 'rein worker: --stalled-interval must be from 100 to 2147483647, not 3000000000\n',
    })
    expect(await worker('--stalled-interval', '0')).toMatchObject({ code: 2, stderr: 'rein worker: --stalled-interval must be from 100 to 2147483647, not 0\n' })
    expect(await worker('--concurrency', '0')).toMatchObject({ code: 2, stderr: 'rein worker: --concurrency must be from 1 to 10000, not 0\n' })
  })

  it('says a malformed PostgreSQL URL is malformed, naming where it came from', async () => {
    expect(await rein(['worker', '--redis', 'redis://127.0.0.1:1', '--postgres', 'not a url'], await project({}))).toMatchObject({
      code: 2, stderr: 'rein worker: the PostgreSQL URL is not a URL; write it as postgres://user:password@host:port/db (--postgres)\n',
    })
    expect(await rein(['worker', '--redis', 'redis://127.0.0.1:1'], await project({}), { REIN_DATABASE_URL: 'http://db/x' })).toMatchObject({
      code: 2, stderr: 'rein worker: the PostgreSQL URL must start with postgres:// or postgresql://, got "http:" (REIN_DATABASE_URL)\n',
    })
  })
})
