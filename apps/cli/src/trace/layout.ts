/**
 * Where everything goes on the timeline, as numbers only (pure; `render.ts` draws it). Turns
 * are laid left to right, each on its own stretch of the time axis (the model's thinking
 * between batches is left out), and top to bottom, one row per call in model order. A bar
 * spans the call's body (when the session has body times; else its start to its end), and a
 * thin wait line its start to its final result; calls whose bars overlapped form a group; an
 * exclusive call is marked as a barrier; a dependency is an arrow from the end of the bar
 * depended on to the start of the bar that waited. Without times, entry order gives steps.
 */
import { concurrentGroups } from '../intervals.js'
import type { Trace, TraceCall } from './read.js'

export interface LayoutOptions {
  /** Total width of the drawing in px. */
  width: number
  /** Width of the label column on the left. */
  labelWidth: number
  rowHeight: number
  /** Height of each turn's header band. */
  headerHeight: number
  /** Horizontal gap between turns. */
  turnGap: number
  /** No bar is narrower than this, so instant calls stay visible. */
  minBarWidth: number
  /** No turn's stretch of the axis is narrower than this. */
  minTurnWidth: number
  /** Room right of the last turn, for the labels after its bars. */
  rightMargin: number
}

export const DEFAULT_LAYOUT: LayoutOptions = {
  width: 1200, labelWidth: 230, rowHeight: 24, headerHeight: 30, turnGap: 16, minBarWidth: 3, minTurnWidth: 60, rightMargin: 170,
}

export interface Bar {
  call: TraceCall
  x: number
  y: number
  width: number
  height: number
  /** The bar's start and end in the turn's own units (ms from its first start, or steps): the body's run when known. */
  start: number
  end: number
  /** From the call's start to its final result (same units, and in px); wider than the bar when the call waited. */
  wait: { start: number, end: number, x1: number, x2: number }
}

export interface TurnBand {
  turn: number
  text: string
  outcome?: string
  /** The turn's stretch of the axis. */
  x: number
  width: number
  /** Its header and rows. */
  y: number
  height: number
  /** Length of the stretch, in `Layout.unit`. */
  span: number
  calls: number
}

/** Calls of one turn that ran at the same time (only groups of two or more). */
export interface GroupBox {
  turn: number
  ids: string[]
  x: number
  y: number
  width: number
  height: number
}

/** An exclusive call: nothing of its batch ran beside it. */
export interface BarrierMark {
  id: string
  turn: number
  x1: number
  x2: number
  y: number
  height: number
}

/** From the end of `from` to the start of `to`. */
export interface Arrow {
  from: string
  to: string
  turn: number
  x1: number
  y1: number
  x2: number
  y2: number
}

export interface Layout {
  width: number
  height: number
  labelWidth: number
  rowHeight: number
  unit: 'ms' | 'step'
  turns: TurnBand[]
  bars: Bar[]
  groups: GroupBox[]
  barriers: BarrierMark[]
  arrows: Arrow[]
  /** The outcomes present, `ok` first. */
  outcomes: string[]
}

interface Span { call: TraceCall, start: number, end: number, waitStart: number, waitEnd: number }

/** Lays out `trace`. */
export function layoutTrace(trace: Trace, options: Partial<LayoutOptions> = {}): Layout {
  const o = { ...DEFAULT_LAYOUT, ...options }
  const spans = trace.turns.map((turn) => (trace.timed ? timedSpans(turn.calls) : steppedSpans(turn.calls)))
  const lengths = spans.map((s) => Math.max(1, ...s.map((c) => c.waitEnd)))
  const n = trace.turns.length
  const axis = Math.max(n * o.minTurnWidth, o.width - o.labelWidth - o.rightMargin - o.turnGap * Math.max(0, n - 1))
  const total = lengths.reduce((a, b) => a + b, 0)
  const widths = lengths.map((len) => o.minTurnWidth + (axis - n * o.minTurnWidth) * (len / total))

  const layout: Layout = {
    width: 0, height: 0, labelWidth: o.labelWidth, rowHeight: o.rowHeight, unit: trace.timed ? 'ms' : 'step',
    turns: [], bars: [], groups: [], barriers: [], arrows: [], outcomes: [],
  }
  let x = o.labelWidth
  let y = 0
  trace.turns.forEach((turn, t) => {
    const scale = widths[t] / lengths[t]
    const rowsTop = y + o.headerHeight
    const bars = spans[t].map(({ call, start, end, waitStart, waitEnd }, row): Bar => ({
      call, start, end,
      wait: { start: waitStart, end: waitEnd, x1: x + waitStart * scale, x2: x + waitEnd * scale },
      x: x + start * scale,
      y: rowsTop + row * o.rowHeight + 4,
      width: Math.max(o.minBarWidth, (end - start) * scale),
      height: o.rowHeight - 8,
    }))
    const height = o.headerHeight + turn.calls.length * o.rowHeight
    layout.turns.push({ turn: turn.turn, text: turn.text, outcome: turn.outcome, x, width: widths[t], y, height, span: lengths[t], calls: turn.calls.length })
    layout.bars.push(...bars)
    layout.groups.push(...groupsOf(turn.turn, bars, o.rowHeight))
    layout.barriers.push(...bars.filter((b) => b.call.mode === 'exclusive').map((b) => ({
      id: b.call.id, turn: turn.turn, x1: b.x, x2: b.x + b.width, y: rowsTop, height: turn.calls.length * o.rowHeight,
    })))
    layout.arrows.push(...arrowsOf(turn.turn, bars))
    x += widths[t] + o.turnGap
    y += height
  })
  layout.width = Math.max(o.width, x - o.turnGap + o.rightMargin)
  layout.height = y
  const outcomes = new Set(layout.bars.map((b) => b.call.outcome))
  layout.outcomes = [...outcomes].sort((a, b) => Number(b === 'ok') - Number(a === 'ok') || a.localeCompare(b))
  return layout
}

/**
 * Milliseconds from the turn's first start. A call with no start sits at its end; with
 * neither, at 0. The bar is the body's run when the session has it, else start to end.
 */
function timedSpans(calls: readonly TraceCall[]): Span[] {
  const times = calls.flatMap((c) => [c.startAt, c.endAt, c.bodyStartAt, c.bodyEndAt]).filter((t): t is number => t !== undefined)
  const origin = times.length ? Math.min(...times) : 0
  return calls.map((call) => {
    const waitStart = (call.startAt ?? call.endAt ?? origin) - origin
    const waitEnd = Math.max(waitStart, (call.endAt ?? call.startAt ?? origin) - origin)
    if (call.bodyStartAt === undefined || call.bodyEndAt === undefined) return { call, start: waitStart, end: waitEnd, waitStart, waitEnd }
    const start = call.bodyStartAt - origin
    const end = Math.max(start, call.bodyEndAt - origin)
    return { call, start, end, waitStart: Math.min(waitStart, start), waitEnd: Math.max(waitEnd, end) }
  })
}

/** Steps in entry order: each `tool/call` and `tool/result` entry of the turn is one step. */
function steppedSpans(calls: readonly TraceCall[]): Span[] {
  const seqs = [...new Set(calls.flatMap((c) => [c.startSeq, c.endSeq]).filter((s): s is number => s !== undefined))].sort((a, b) => a - b)
  const step = (seq: number | undefined) => (seq === undefined ? undefined : seqs.indexOf(seq))
  return calls.map((call) => {
    const start = step(call.startSeq) ?? step(call.endSeq) ?? 0
    const end = Math.max(start + 1, (step(call.endSeq) ?? start) + 1)
    return { call, start, end, waitStart: start, waitEnd: end }
  })
}

function groupsOf(turn: number, bars: readonly Bar[], rowHeight: number): GroupBox[] {
  return concurrentGroups(bars.filter((b) => b.call.started))
    .filter((group) => group.length > 1)
    .map((group) => {
      const x = Math.min(...group.map((b) => b.x))
      const top = Math.min(...group.map((b) => b.y))
      const bottom = Math.max(...group.map((b) => b.y + b.height))
      return {
        turn, ids: group.map((b) => b.call.id),
        x: x - 3, y: top - 3, width: Math.max(...group.map((b) => b.x + b.width)) - x + 6, height: bottom - top + 6,
      }
    })
    .map((box) => ({ ...box, height: Math.max(box.height, rowHeight - 2) }))
}

function arrowsOf(turn: number, bars: readonly Bar[]): Arrow[] {
  const byId = new Map(bars.map((b) => [b.call.id, b]))
  return bars.flatMap((to) => to.call.deps.flatMap((id) => {
    const from = byId.get(id)
    if (!from) return []
    return [{ from: id, to: to.call.id, turn, x1: from.x + from.width, y1: from.y + from.height / 2, x2: to.x, y2: to.y + to.height / 2 }]
  }))
}
