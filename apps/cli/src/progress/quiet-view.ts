/**
 * The view of `rein run --json`: nothing is drawn, so stdout holds only the JSON document;
 * a line about the run itself (aborted, stopped at maxTurns) still reaches stderr.
 */
import { println, type Output } from '../io.js'
import { safeLine } from '../terminal-text.js'
import type { ProgressView } from './view.js'

/** Shows nothing but status lines, on `err`. */
export class QuietView implements ProgressView {
  constructor(private readonly err: Output) {}

  status(text: string): void {
    println(this.err, safeLine(text))
  }

  note(): void {}
  started(): void {}
  ended(): void {}
  turnEnded(): void {}
  text(): void {}
  answer(): void {}
  pause(): void {}
  resume(): void {}
  close(): void {}
}
