/**
 * Progress as plain lines, one per event, for pipes, logs and CI: nothing is ever redrawn,
 * so the output reads as a record of what happened, in the order it happened. The model's
 * words are kept: streamed text is gathered and printed as `model:` lines before the calls
 * it announced (once, however it arrived), and the final answer is printed whole. What the
 * model, a tool or a provider wrote is printed with its control characters escaped.
 */
import { println, type Output } from '../io.js'
import { safeLine, safeText } from '../terminal-text.js'
import { endLine, startLine, turnLine } from './lines.js'
import type { Style } from './style.js'
import type { LiveCall, ProgressView, TurnReport } from './view.js'

const WIDTH = 120

/** One line per event. */
export class PlainView implements ProgressView {
  private lastTurn = 0
  /** Text streamed since the model's last words were printed. */
  private streamed = ''

  constructor(private readonly out: Output, private readonly style: Style) {}

  note(text: string): void {
    this.streamed = ''
    this.say(safeText(text))
  }

  started(call: LiveCall): void {
    this.flush()
    if (call.turn !== this.lastTurn) {
      this.lastTurn = call.turn
      println(this.out, this.style.bold(`turn ${call.turn}`))
    }
    println(this.out, startLine(call, this.style, WIDTH))
  }

  ended(call: LiveCall): void {
    println(this.out, endLine(call, this.style))
  }

  turnEnded(report: TurnReport): void {
    println(this.out, turnLine(report, this.style))
  }

  text(delta: string): void {
    this.streamed += safeText(delta)
  }

  status(text: string): void {
    this.flush()
    println(this.out, this.style.yellow(safeLine(text)))
  }

  answer(raw: string): void {
    const text = safeText(raw)
    if (this.streamed.trim() !== text.trim()) this.flush()
    this.streamed = ''
    println(this.out, this.style.bold('answer:'))
    println(this.out, text)
  }

  /** Nothing is redrawn, so there is nothing to stop. */
  pause(): void {}
  resume(): void {}

  close(): void {
    this.flush()
  }

  /** Prints what was streamed and not yet said. */
  private flush(): void {
    const text = this.streamed
    this.streamed = ''
    this.say(text)
  }

  private say(text: string): void {
    if (text.trim() === '') return
    for (const line of text.trim().split('\n')) println(this.out, this.style.cyan(`model: ${line}`))
  }
}
