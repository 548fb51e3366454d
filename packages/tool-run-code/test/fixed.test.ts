/** The sandbox's clock and random numbers are fixed per call (DESIGN.md §7.2), and the rest of `Date` still works. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { harness, outcome, run } from './helpers.js'

let ctx: Context
beforeAll(async () => { ({ ctx } = await harness()) })
afterAll(() => ctx.stop())

const READ = `
  const a = Date.now()
  let spin = 0
  while (spin < 200000) spin++
  return {
    same: a === Date.now() && a === new Date().getTime() && Date() === new Date(a).toString(),
    now: a,
    random: [Math.random(), Math.random(), Math.random()],
  }`

describe('the fixed clock and random numbers', () => {
  it('gives one instant for the whole run, near the call\'s start, and random numbers in [0, 1) that vary within a run', async () => {
    const before = Date.now()
    const [code, value] = outcome(await run(ctx, READ)) as [string, { same: boolean, now: number, random: number[] }]
    expect(code).toBe('OK')
    expect(value.same).toBe(true)
    expect(value.now).toBeGreaterThanOrEqual(before)
    expect(value.now).toBeLessThanOrEqual(Date.now())
    expect(new Set(value.random).size).toBe(3)
    for (const n of value.random) expect(n >= 0 && n < 1).toBe(true)
  })

  it('seeds the random numbers from the call: the same call id and session give the same numbers, another id others', async () => {
    const session = { id: 'fixed-test-session' }
    const random = async (id: string) => (outcome(await run(ctx, READ, { id, session, turn: 1 }))[1] as { random: number[] }).random
    const first = await random('call-a')
    expect(await random('call-a')).toEqual(first)
    expect(await random('call-b')).not.toEqual(first)
  })

  it('keeps the rest of Date: explicit dates, parsing, subclasses, instanceof, and no way back to the host clock', async () => {
    const [code, value] = outcome(await run(ctx, `
      class Stamp extends Date {}
      const made = new Date().constructor
      return {
        explicit: new Date(2020, 1, 3, 4, 5, 6).getMonth(),
        parsed: Date.parse('2000-01-01T00:00:00Z'),
        utc: Date.UTC(2000, 0, 1),
        sub: new Stamp() instanceof Date && new Stamp().getTime() === Date.now() && new Stamp(0).getTime() === 0,
        isDate: new Date(0) instanceof Date,
        name: Date.name,
        back: new made().getTime() === Date.now() && Object.getPrototypeOf(new Date()).constructor === Date,
      }`))
    expect(code).toBe('OK')
    expect(value).toEqual({ explicit: 1, parsed: 946684800000, utc: 946684800000, sub: true, isDate: true, name: 'Date', back: true })
  })
})
