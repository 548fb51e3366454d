/** The timeline layout, as numbers: bars, turns, groups, barriers, arrows. */
import { describe, expect, it } from 'vitest'
import { layoutTrace } from '../src/trace/layout.js'
import { readTrace } from '../src/trace/read.js'
import { sessionText, type CallSpec } from './sessions.js'

const OPTIONS = { width: 1000, labelWidth: 200, rightMargin: 100, turnGap: 20, minTurnWidth: 50, minBarWidth: 2, rowHeight: 20, headerHeight: 30 }
const layout = (turns: CallSpec[][], timed = true) => layoutTrace(readTrace(sessionText(turns, { timed })), OPTIONS)

const BATCH: CallSpec[] = [
  { id: 'r1', start: 0, end: 100, mode: 'parallel' },
  { id: 'r2', start: 0, end: 50, mode: 'parallel' },
  { id: 'w', start: 100, end: 150, mode: 'exclusive' },
  { id: 'r3', start: 150, end: 200, mode: 'parallel', args: { p: '${w.result}' } },
]

describe('layoutTrace', () => {
  it('draws one bar per call, one row each in model order, from its start to its end', () => {
    const { bars } = layout([BATCH])
    expect(bars.map((b) => b.call.id)).toEqual(['r1', 'r2', 'w', 'r3'])
    expect(bars.map((b) => b.y)).toEqual([34, 54, 74, 94])
    const px = bars[0].width / 100
    expect(px).toBeGreaterThan(0)
    expect(bars.map((b) => [b.x - bars[0].x, b.width].map((n) => Math.round(n / px)))).toEqual([[0, 100], [0, 50], [100, 50], [150, 50]])
  })

  it('boxes calls that overlapped in time as a group, and only those', () => {
    const { groups } = layout([BATCH])
    expect(groups.map((g) => g.ids)).toEqual([['r1', 'r2']])
  })

  it('marks exclusive calls as barriers spanning their batch', () => {
    const { barriers, bars } = layout([BATCH])
    expect(barriers).toHaveLength(1)
    expect(barriers[0]).toMatchObject({ id: 'w', x1: bars[2].x, x2: bars[2].x + bars[2].width, y: 30, height: 80 })
  })

  it('draws an arrow from the end of a call to the start of the call that used its result', () => {
    const { arrows, bars } = layout([BATCH])
    expect(arrows).toEqual([{ from: 'w', to: 'r3', turn: 1, x1: bars[2].x + bars[2].width, y1: 80, x2: bars[3].x, y2: 100 }])
  })

  it('lays batches out left to right and top to bottom, each on its own stretch of the axis', () => {
    const { turns, bars, width } = layout([BATCH, [{ id: 'x', start: 0, end: 600 }]])
    expect(turns.map((t) => [t.turn, t.y, t.height, t.span])).toEqual([[1, 0, 110, 200], [2, 110, 50, 600]])
    expect(turns[1].x).toBeCloseTo(turns[0].x + turns[0].width + 20)
    expect(turns[0].width + turns[1].width).toBeCloseTo(1000 - 200 - 100 - 20)
    expect(turns[1].width / turns[0].width).toBeGreaterThan(2)
    expect(bars[4].x).toBeCloseTo(turns[1].x)
    expect(width).toBe(1000)
  })

  it('draws the body run as the bar and start to final result as the wait line; groups what ran together', () => {
    const { bars, groups, turns } = layout([[
      { id: 'a', start: 0, body: [0, 250], final: 250, end: 250, mode: 'parallel' },
      { id: 'b', start: 0, body: [0, 100], final: 250, end: 250, mode: 'parallel' },
      { id: 'w', start: 250, body: [260, 300], final: 400, end: 400, mode: 'exclusive' },
    ]])
    const px = bars[0].width / 250
    const at = (n: number) => Math.round((n - bars[0].x) / px)
    expect(bars.map((b) => [b.start, b.end, b.wait.start, b.wait.end])).toEqual([[0, 250, 0, 250], [0, 100, 0, 250], [260, 300, 250, 400]])
    expect(bars.map((b) => [at(b.x), at(b.x + b.width), at(b.wait.x1), at(b.wait.x2)])).toEqual([[0, 250, 0, 250], [0, 100, 0, 250], [260, 300, 250, 400]])
    expect(groups.map((g) => g.ids)).toEqual([['a', 'b']])
    expect(turns[0].span).toBe(400)
  })

  it('without times, lays calls out by entry order in unit steps', () => {
    const { bars, unit, groups } = layout([BATCH], false)
    expect(unit).toBe('step')
    expect(bars.map((b) => [b.start, b.end])).toEqual([[0, 4], [1, 3], [4, 6], [6, 8]])
    expect(groups.map((g) => g.ids)).toEqual([['r1', 'r2']])
  })

  it('keeps instant calls visible and lists the outcomes present, ok first', () => {
    const { bars, outcomes } = layout([[{ id: 'a', start: 0, end: 100 }, { id: 'b', start: 100, end: 100, code: 'TOOL_DENIED' }, { id: 'c', start: 0, end: 10, code: 'ABORTED' }]])
    expect(bars[1].width).toBe(2)
    expect(outcomes).toEqual(['ok', 'ABORTED', 'TOOL_DENIED'])
  })
})
