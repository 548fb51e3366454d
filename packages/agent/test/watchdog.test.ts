import { describe, expect, it } from 'vitest'
import { watchdog } from './watchdog.js'

describe('the fault-injection watchdog', () => {
  it('fires for a run that never settles, after its ticks', async () => {
    const dog = watchdog(5, 10)
    expect(await Promise.race([new Promise<never>(() => {}), dog.fired])).toBe('hang')
  })

  it('leaves a run that settles alone, and keeps no timer once stopped', async () => {
    const dog = watchdog(5, 10)
    expect(await Promise.race([Promise.resolve('done'), dog.fired])).toBe('done')
    dog.stop()
    let fired = false
    void dog.fired.then(() => { fired = true })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(fired).toBe(false)
  })
})
