import { threadId } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { isolatedFunction, type IsolatedFunction } from '../src/index.js'
import { FIXTURE, firstProgress } from './helpers.js'

const made: IsolatedFunction<any, any>[] = []
function make<A, R>(fn: string) {
  const isolated = isolatedFunction<A, R>({ module: FIXTURE, export: fn })
  made.push(isolated)
  return isolated
}
afterEach(async () => { await Promise.all(made.splice(0).map((isolated) => isolated.dispose())) })

const live = () => new AbortController().signal

describe('isolatedFunction', () => {
  it('resolves with the value computed in a worker thread', async () => {
    const echo = make<{ text: string }, { echoed: string, threadId: number }>('default')
    const value = await echo.run({ text: 'hi' }, live())
    expect(value.echoed).toBe('hi')
    expect(value.threadId).not.toBe(threadId)
  })

  it('rejects with the message, name and code thrown in the worker', async () => {
    await expect(make('fail').run({}, live())).rejects.toMatchObject({ message: 'disk on fire', code: 'E_FIRE' })
    await expect(make('failRange').run({}, live())).rejects.toMatchObject({ message: 'limit too big', name: 'RangeError' })
  })

  it('terminates the worker when the signal aborts and rejects with its reason; the next call gets a new worker', async () => {
    const spin = make<{ once?: boolean }, number>('spin')
    const controller = new AbortController()
    const gate = firstProgress()
    const running = spin.run({}, controller.signal, gate.onProgress)
    const spinning = Number((await gate.reported)?.message)
    const reason = new Error('enough')
    controller.abort(reason)
    await expect(running).rejects.toBe(reason)
    await spin.settled()
    expect(spin.threads()).toBe(0)
    const next = await spin.run({ once: true }, live())
    expect(next).not.toBe(spinning)
  })

  it('names itself in the error for a relative module', () => {
    expect(() => isolatedFunction({ module: 'match.mjs', label: 'grep matcher' }))
      .toThrow(/^grep matcher: module must be a file: URL or an absolute path, got "match\.mjs"/)
  })
})
