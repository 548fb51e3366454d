import { describe, expect, it } from 'vitest'
import { childSignal } from '../src/signal.js'

describe('childSignal', () => {
  it('aborts with the parent and its reason', () => {
    const parent = new AbortController()
    const child = childSignal(parent.signal)
    const reason = new Error('stop')
    parent.abort(reason)
    expect([child.signal.aborted, child.signal.reason]).toEqual([true, reason])
  })

  it('no longer follows the parent once released', () => {
    const parent = new AbortController()
    const child = childSignal(parent.signal)
    child.release()
    parent.abort()
    expect(child.signal.aborted).toBe(false)
  })

  it('starts aborted under an aborted parent', () => {
    const reason = new Error('already')
    const child = childSignal(AbortSignal.abort(reason))
    expect(child.signal.reason).toBe(reason)
    child.release()
  })
})
