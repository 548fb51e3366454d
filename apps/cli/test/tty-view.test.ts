/** The terminal view: rows of the batch in flight redrawn in place, never wider than the terminal. */
import { failure, type ToolExecutionResult } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { createStyle } from '../src/progress/style.js'
import { TtyView } from '../src/progress/tty-view.js'
import type { LiveCall } from '../src/progress/view.js'

const ESC = '\x1b['
const ok: ToolExecutionResult = { isError: false, value: 'v', content: [{ type: 'text', text: 'v' }], meta: { cacheHit: true } }
const call = (index: number, id: string, mode: LiveCall['mode'] = 'parallel'): LiveCall =>
  ({ turn: 1, index, id, name: 'lookup', arguments: { key: id.repeat(40) }, mode, startedAt: performance.now() })

function screen(columns = 60) {
  const chunks: string[] = []
  return { chunks, out: { columns, write: (s: string) => { chunks.push(s) } } }
}

describe('TtyView', () => {
  it('redraws the rows of the batch in flight in place, and leaves them when the batch ends', () => {
    const { chunks, out } = screen()
    const view = new TtyView(out, createStyle(false))
    const a = call(0, 'a')
    const b = call(1, 'b')
    view.started(a)
    view.started(b)
    a.result = ok
    a.durationMs = 12
    view.ended(a)
    const last = chunks.at(-1)!
    expect(last.startsWith(`${ESC}2F`)).toBe(true)
    const rows = last.slice(`${ESC}2F`.length).split('\n').filter(Boolean).map((r) => r.replace(`${ESC}2K`, ''))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(/^ {2}✓ a {5}lookup .* ok 12ms · cache hit$/)
    expect(rows[1]).toMatch(/running \d+ms · parallel$/)
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(59)

    b.result = failure('TOOL_DENIED', 'not allowed')
    b.durationMs = 1
    view.ended(b)
    view.turnEnded({ turn: 1, outcome: 'committed', calls: [a, b], groups: [['a', 'b']], wallMs: 12, serialMs: 13 })
    const after = chunks.length
    view.started({ ...call(0, 'c'), turn: 2 })
    expect(chunks.slice(after).join('')).not.toContain(`${ESC}2F`)
    view.close()
    expect(chunks.at(-1)).toBe(`${ESC}?25h`)
  })

  it('wraps a finished row at 80 columns instead of cutting its reason, and redraws over every line of it', () => {
    const { chunks, out } = screen(80)
    const view = new TtyView(out, createStyle(false))
    const a = call(0, 'a')
    const b = call(1, 'b')
    view.started(a)
    view.started(b)
    const reason = 'delete_note is denied: the demo never deletes anything, and nothing outside the workspace either'
    a.result = failure('TOOL_DENIED', reason)
    a.durationMs = 2
    view.ended(a)
    const lines = chunks.at(-1)!.slice(`${ESC}2F`.length).split('\n').filter(Boolean).map((r) => r.replace(`${ESC}2K`, ''))
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(79)
    const rowA = lines.slice(0, -1)
    expect(rowA[0]).toMatch(/^ {2}✗ a {5}lookup .* TOOL_DENIED 2ms/)
    expect(rowA.map((line, i) => i === 0 ? line.slice(line.indexOf('TOOL_DENIED')) : line.trim()).join(' ')).toBe(`TOOL_DENIED 2ms · ${reason}`)
    expect(lines.at(-1)).toMatch(/running \d+ms · parallel$/)
    view.ended(b)
    expect(chunks.at(-1)!.startsWith(`${ESC}${lines.length}F`)).toBe(true)
    view.close()
  })

  it('keeps a status line under the rows while calls run', () => {
    const { chunks, out } = screen(80)
    const view = new TtyView(out, createStyle(false))
    view.started(call(0, 'a'))
    view.status('interrupted: waiting')
    expect(chunks.at(-1)).toMatch(/running .*\n\x1b\[2Kinterrupted: waiting\n$/)
    view.close()
  })

  it('lends the screen while paused: rows erased, nothing drawn until resume, then drawn again', () => {
    const { chunks, out } = screen(80)
    const view = new TtyView(out, createStyle(false))
    const a = call(0, 'a')
    view.started(a)
    view.started(call(1, 'b'))
    view.pause()
    expect(chunks.at(-2)).toBe(`${ESC}2F${ESC}J`)
    expect(chunks.at(-1)).toBe(`${ESC}?25h`)
    const paused = chunks.length
    a.result = ok
    a.durationMs = 3
    view.ended(a)
    view.started(call(2, 'c'))
    view.status('interrupted')
    expect(chunks.length).toBe(paused)
    view.resume()
    const drawn = chunks.slice(paused).join('')
    expect(drawn.startsWith(`${ESC}?25l${ESC}2K`)).toBe(true)
    expect(drawn).toMatch(/✓ a .* ok 3ms[^]*running[^]*running[^]*interrupted\n$/)
    view.close()
  })
  it('draws a streamed final answer once, after answer: and in full weight, over the dim stream', () => {
    const { chunks, out } = screen(20)
    const view = new TtyView(out, createStyle(true))
    const streamed = 'The folder holds three files.\nDone'
    view.text('The folder holds ')
    view.text('three files.\nDone')
    const before = chunks.length
    view.answer(streamed)
    const drawn = chunks.slice(before).join('')
    // 29 characters at 20 columns are two rows, and "Done" a third: back up two lines and clear.
    expect(drawn.startsWith(`\r${ESC}2F${ESC}J`)).toBe(true)
    expect(drawn).toContain(`${ESC}1manswer:${ESC}22m\n${streamed}\n`)
    expect(drawn).not.toContain(`${ESC}2m`)
    view.close()
  })

  it('labels an answer that was not streamed, and keeps interim text that was', () => {
    const { chunks, out } = screen(80)
    const view = new TtyView(out, createStyle(false))
    view.text('let me look')
    view.answer('all done')
    expect(chunks.join('')).toContain('let me look\nanswer:\nall done\n')
    view.close()
  })
})

describe('TtyView: what the model and tools wrote cannot drive the terminal', () => {
  const hostile = 'a\x1b[8mb\x9b2Jc\u202ed'
  const shown = 'a\\x1b[8mb\\x9b2Jc\\u202ed'
  /** The output with the view's own sequences (cursor, erase, show/hide) taken out. */
  const own = /\x1b\[(\?25[hl]|\d*[FJ]|2K)/g

  it('escapes ESC, C1 and bidi controls in streamed text, notes, the answer, rows, errors and status', () => {
    const { chunks, out } = screen(200)
    const view = new TtyView(out, createStyle(false))
    view.text(`streamed ${hostile}`)
    view.note(`noted ${hostile}`)
    const c: LiveCall = { ...call(0, `c1${hostile}`), name: `x${hostile}`, arguments: `{"k":"${hostile}"` }
    view.started(c)
    view.status(`status ${hostile}`)
    c.result = failure('TOOL_FAILED', `boom ${hostile}\x1b[8m`)
    c.durationMs = 3
    view.ended(c)
    view.turnEnded({ turn: 1, outcome: 'committed', calls: [c], groups: [[c.id]], wallMs: 3, serialMs: 3 })
    view.answer(`answer ${hostile}`)
    view.close()
    const text = chunks.join('')
    expect(text.replace(own, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    for (const piece of [`streamed ${shown}`, `model: noted ${shown}`, `c1${shown}`, `x${shown}`, `status ${shown}`,
      `boom ${shown}\\x1b[8m`, `[c1${shown}]`, `answer ${shown}`]) expect(text).toContain(piece)
  })
})
