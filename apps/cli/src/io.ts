/**
 * What a command may touch of the outside world, passed in so that tests run commands in
 * process: two output streams, the working directory, the environment, whether stdout is a
 * terminal, and (optionally) how a question is answered, how Ctrl-C and a hard exit reach
 * it. Nothing else is global.
 */

/** Somewhere text goes. `columns` is the terminal width when known. */
export interface Output {
  write(chunk: string): unknown
  columns?: number
}

/** The world of one `main()` call. */
export interface Io {
  stdout: Output
  stderr: Output
  /** Relative paths on the command line are resolved against this folder. */
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /** What the process reads on stdin (`rein hook` reads its JSON input from it). */
  stdin?: AsyncIterable<Uint8Array | string>
  /** stdout is a terminal: progress redraws lines in place; otherwise one plain line per event. */
  isTTY: boolean
  /** Subscribes to Ctrl-C; returns the unsubscribe. Default: `process.on('SIGINT')`. */
  onInterrupt?(handler: () => void): () => void
  /** Ends the process at once (a second Ctrl-C). Default: `process.exit`. */
  exit?(code: number): void
  /**
   * Writes `question` and resolves with the next line typed (without its newline), or
   * `undefined` at the end of input or once `signal` aborts. Without it nobody can answer:
   * questions (approvals) are answered "no". `processIo()` sets it when stdin is a terminal.
   */
  prompt?(question: string, signal: AbortSignal): Promise<string | undefined>
}

/** The Io of the real process. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    isTTY: process.stdout.isTTY === true,
    ...(process.stdin.isTTY ? { prompt: stdinPrompt(process.stdout) } : {}),
  }
}

/** Reads one line of process.stdin per question (the module loads only when first asked). */
function stdinPrompt(out: Output): NonNullable<Io['prompt']> {
  return async (question, signal) => (await import('./stdin-line.js')).readStdinLine(question, signal, out)
}

/** Writes one line. */
export function println(out: Output, line = ''): void {
  out.write(`${line}\n`)
}

/** `onInterrupt` of `io`, or the process' SIGINT. */
export function interrupts(io: Io): (handler: () => void) => () => void {
  if (io.onInterrupt) return (handler) => io.onInterrupt!(handler)
  return (handler) => {
    process.on('SIGINT', handler)
    return () => { process.off('SIGINT', handler) }
  }
}

/** `exit` of `io`, or `process.exit`. */
export function exitNow(io: Io, code: number): void {
  if (io.exit) io.exit(code)
  else process.exit(code)
}
