/**
 * One answer typed at the terminal: writes a question and resolves with the next line of
 * process.stdin, or `undefined` at the end of input (Ctrl-D) or when the signal aborts. The
 * terminal stays in its ordinary line mode, so Ctrl-C is still a SIGINT for the run to handle.
 * The reader is closed after each answer, so it never keeps the process alive.
 */
import { createInterface } from 'node:readline'
import type { Output } from './io.js'

/** Asks `question` on `out` and reads one line of process.stdin. Never rejects. */
export function readStdinLine(question: string, signal: AbortSignal, out: Output): Promise<string | undefined> {
  const input = process.stdin
  if (signal.aborted || input.readableEnded) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const reader = createInterface({ input, terminal: false })
    let settled = false
    const finish = (line: string | undefined) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      reader.close()
      resolve(line)
    }
    const onAbort = () => finish(undefined)
    signal.addEventListener('abort', onAbort, { once: true })
    reader.once('line', (line) => finish(line))
    reader.once('close', () => finish(undefined))
    out.write(question)
  })
}
