/**
 * Progress on a terminal: the calls of the batch in flight are rows that are redrawn in place
 * (a spinner and elapsed time while running, outcome and notes once final), so parallel
 * groups are seen starting and finishing together. A finished batch stays on screen as
 * plain text. No line is ever wider than the terminal, so a redraw never has to undo a line
 * the terminal wrapped: a running row is cut to fit, and a finished row's outcome and reason
 * (a denial's, a timeout's) continue on lines of their own below it instead of being cut.
 * What the model, a tool or a provider wrote (text, ids, names, reasons) is drawn with its
 * control characters escaped: only the view's own sequences reach the terminal.
 */
import type { Output } from '../io.js'
import { safeLine, safeText } from '../terminal-text.js'
import { argsPreview, clip, formatMs, notesOf, outcomeOf, wrap } from './format.js'
import { mark, modeLabel, outcomeText, turnLine } from './lines.js'
import type { Style } from './style.js'
import type { LiveCall, ProgressView, TurnReport } from './view.js'

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const TICK_MS = 80
const ESC = '\x1b['
/** At most this many rows are redrawn; finished rows above them stay as printed. */
const MAX_LIVE = 16

/** Redraws the rows of the batch in flight. */
export class TtyView implements ProgressView {
  private rows: LiveCall[] = []
  private drawn = 0
  private frame = 0
  private timer: ReturnType<typeof setInterval> | undefined
  private lastTurn = 0
  /** A status line kept under the rows in flight. */
  private footer: string | undefined
  private closed = false
  /** Lent out by `pause`: nothing is drawn until `resume`. */
  private paused = false
  /** Text streamed since the last newline of the view's own output. */
  private streamed = ''

  constructor(private readonly out: Output, private readonly style: Style) {
    out.write(`${ESC}?25l`)
  }

  note(raw: string): void {
    const text = safeText(raw)
    this.settle()
    if (this.streamed.trim() !== '' && this.streamed.trim() === text.trim()) {
      this.endStream()
      return
    }
    this.endStream()
    for (const line of text.split('\n')) this.line(this.style.cyan(`model: ${line}`))
  }

  started(call: LiveCall): void {
    if (call.turn !== this.lastTurn) {
      this.settle()
      this.lastTurn = call.turn
      this.line(this.style.bold(`turn ${call.turn}`))
    }
    this.endStream()
    this.rows.push(call)
    this.redraw()
    if (!this.paused) this.tick()
  }

  ended(_call: LiveCall): void {
    this.redraw()
  }

  turnEnded(report: TurnReport): void {
    this.redraw()
    this.settle()
    this.line(turnLine(report, this.style))
  }

  status(raw: string): void {
    const text = safeLine(raw)
    if (this.rows.length === 0) {
      this.line(this.style.yellow(text))
      return
    }
    this.footer = text
    this.redraw()
  }

  text(raw: string): void {
    const delta = safeText(raw)
    this.settle()
    this.streamed += delta
    this.out.write(this.style.dim(delta))
  }

  /**
   * The answer is drawn in full weight after `answer:`. When it was streamed (dim, as any model
   * text is until the model is done), the streamed lines are erased first, so it shows once.
   */
  answer(raw: string): void {
    const text = safeText(raw)
    this.settle()
    if (this.streamed.trim() === text.trim() && text.trim() !== '') this.eraseStream()
    this.endStream()
    this.line(this.style.bold('answer:'))
    this.line(text)
  }

  pause(): void {
    if (this.paused || this.closed) return
    this.paused = true
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.endStream()
    if (this.drawn > 0) this.out.write(`${ESC}${this.drawn}F${ESC}J`)
    this.drawn = 0
    this.out.write(`${ESC}?25h`)
  }

  resume(): void {
    if (!this.paused || this.closed) return
    this.paused = false
    this.out.write(`${ESC}?25l`)
    this.redraw()
    if (this.rows.length > 0) this.tick()
  }

  close(): void {
    if (this.closed) return
    this.paused = false
    this.closed = true
    this.settle()
    this.endStream()
    this.out.write(`${ESC}?25h`)
  }

  /** The rows become ordinary output; the next batch starts below them. */
  private settle(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.rows = []
    this.drawn = 0
    this.footer = undefined
  }

  /** Starts the spinner, unless it runs already. */
  private tick(): void {
    this.timer ??= setInterval(() => { this.frame++; this.redraw() }, TICK_MS)
    this.timer.unref?.()
  }

  /** Moves back to where the streamed text began and clears from there down. */
  private eraseStream(): void {
    const columns = Math.max(1, this.out.columns ?? 100)
    const rows = this.streamed.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / columns)), 0)
    this.out.write(rows > 1 ? `\r${ESC}${rows - 1}F${ESC}J` : `\r${ESC}J`)
    this.streamed = ''
  }

  private endStream(): void {
    if (this.streamed && !this.streamed.endsWith('\n')) this.out.write('\n')
    this.streamed = ''
  }

  private line(text: string): void {
    this.endStream()
    this.out.write(`${text}\n`)
  }

  private redraw(): void {
    if (this.rows.length === 0 || this.paused) return
    const width = Math.max(40, (this.out.columns ?? 100) - 1)
    const now = performance.now()
    let text = this.drawn > 0 ? `${ESC}${this.drawn}F` : ''
    const heights: number[] = []
    for (const row of this.rows) {
      const lines = this.row(row, width, now)
      heights.push(lines.length)
      for (const line of lines) text += `${ESC}2K${line}\n`
    }
    if (this.footer !== undefined) text += `${ESC}2K${this.style.yellow(clip(this.footer, width))}\n`
    this.drawn = heights.reduce((sum, h) => sum + h, 0) + (this.footer !== undefined ? 1 : 0)
    this.out.write(text)
    while (this.rows.length > MAX_LIVE && this.rows[0]!.result) {
      this.rows.shift()
      this.drawn -= heights.shift()!
    }
  }

  /**
   * One row: mark, id, tool, arguments, then state, each line at most `width` wide. A running
   * row is one line, cut to fit; a finished row's outcome, time and notes wrap onto indented
   * lines below it, so a reason is shown whole.
   */
  private row(call: LiveCall, width: number, now: number): string[] {
    const s = this.style
    const head = `${safeLine(call.id).padEnd(5)} ${safeLine(call.name).padEnd(13)} `
    const fixed = 4 + head.length
    const argsRoom = Math.max(8, Math.min(40, width - fixed - 32))
    const args = argsPreview(call.arguments, argsRoom).padEnd(argsRoom)
    const room = Math.max(1, width - fixed - argsRoom - 2)
    const spin = call.result ? mark(call, s) : s.cyan(SPINNER[this.frame % SPINNER.length]!)
    const start = `  ${spin} ${s.bold(head)}${s.dim(args)}  `
    if (!call.result) {
      const state = `running ${formatMs(now - call.startedAt)} · ${modeLabel(call)}`
      return [start + (state.length > room ? clip(state, room) : s.cyan(state))]
    }
    const notes = [...(call.mode === 'exclusive' ? ['barrier'] : []), ...notesOf(call.result, Infinity)]
    const outcome = outcomeOf(call.result)
    const time = formatMs(call.durationMs ?? 0)
    const indent = ' '.repeat(6)
    const [first = '', ...rest] = wrap(`${outcome} ${time}${notes.length ? ` · ${notes.join(' · ')}` : ''}`, room, width - indent.length)
    const lead = `${outcome} ${time}`
    const painted = first.startsWith(lead) ? `${outcomeText(call, s)} ${time}${s.dim(first.slice(lead.length))}` : first
    return [start + painted, ...rest.map((line) => indent + s.dim(line))]
  }
}
