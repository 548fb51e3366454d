/**
 * Progress as plain lines, one per event, for pipes, logs and CI: nothing is ever redrawn,
 * so the output reads as a record of what happened, in the order it happened.
 */
import { println, type Output } from '../io.js'
import { endLine, startLine, turnLine } from './lines.js'
import type { Style } from './style.js'
import type { LiveCall, ProgressView, TurnReport } from './view.js'

const WIDTH = 120

/** One line per event. Streamed model text is not echoed; the final answer is printed whole. */
export class PlainView implements ProgressView {
  private lastTurn = 0

  constructor(private readonly out: Output, private readonly style: Style) {}

  note(text: string): void {
    for (const line of text.split('\n')) println(this.out, this.style.cyan(`model: ${line}`))
  }

  started(call: LiveCall): void {
    if (call.turn !== this.lastTurn) {
      this.lastTurn = call.turn
      println(this.out, this.style.bold(`turn ${call.turn}`))
    }
    println(this.out, startLine(call, this.style, WIDTH))
  }

  ended(call: LiveCall): void {
    println(this.out, endLine(call, this.style, WIDTH))
  }

  turnEnded(report: TurnReport): void {
    println(this.out, turnLine(report, this.style))
  }

  text(): void {}

  status(text: string): void {
    println(this.out, this.style.yellow(text))
  }

  answer(text: string): void {
    println(this.out, this.style.bold('answer:'))
    println(this.out, text)
  }

  /** Nothing is redrawn, so there is nothing to stop. */
  pause(): void {}
  resume(): void {}

  close(): void {}
}
