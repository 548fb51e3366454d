import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { faultProblems, faultyBatch, runFaultyBatch } from './faults.js'

// 500 seeded batches here; `pnpm test:soak` runs the same property over 10,000
// (REIN_SOAK_BATCHES). A run that never settles is caught by the watchdog as a hang.
const batches = Number(process.env.REIN_SOAK_BATCHES ?? 500)
const seed = process.env.REIN_SOAK_SEED === undefined ? undefined : Number(process.env.REIN_SOAK_SEED)
const WATCHDOG_MS = 10_000

describe('fault injection', () => {
  it(`${batches} batches of broken tools, broken plugins, hostile values and aborts: every call gets one result, in order, and no deny is undone`, async () => {
    let hangs = 0
    await fc.assert(fc.asyncProperty(faultyBatch, async (batch) => {
      let watchdog: ReturnType<typeof setTimeout> | undefined
      const hang = new Promise<'hang'>((resolve) => { watchdog = setTimeout(() => resolve('hang'), WATCHDOG_MS) })
      const run = await Promise.race([runFaultyBatch(batch), hang]).finally(() => clearTimeout(watchdog))
      if (run === 'hang') {
        hangs++
        throw new Error(`the run did not settle within ${WATCHDOG_MS} ms`)
      }
      expect(faultProblems(batch, run)).toEqual([])
    }), { numRuns: batches, seed })
    expect(hangs).toBe(0)
  }, Math.max(60_000, batches * 60))
})
