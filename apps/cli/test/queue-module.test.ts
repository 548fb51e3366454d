/** The fleet commands' one import of @rein/queue, which a plain install of @rein/cli leaves out. */
import { describe, expect, it } from 'vitest'
import { queueModule } from '../src/queue-module.js'

describe('queueModule', () => {
  it('loads @rein/queue when it is installed', async () => {
    expect(typeof (await queueModule()).createWorker).toBe('function')
  })

  it('says which package to install, at this version, when it is missing', async () => {
    const name = '@rein/not-installed-anywhere'
    const missing = () => import(/* @vite-ignore */ name)
    await expect(queueModule(missing, name)).rejects.toThrow(
      /^the fleet commands \(worker, submit, cancel, db\) need @rein\/not-installed-anywhere, which a plain install of @rein\/cli leaves out \(it brings the Redis and PostgreSQL clients\): npm install @rein\/not-installed-anywhere@\d+\.\d+\.\d+$/)
  })

  it('passes on any other failure as it is', async () => {
    const broken = new Error('bullmq failed to load')
    await expect(queueModule(() => Promise.reject(broken))).rejects.toBe(broken)
  })
})
