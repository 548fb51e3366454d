/**
 * Fail closed: the hook's answer races a crash and rein's own time limit, and every way it can
 * fail is exit 2 (the one code Claude Code treats as "block") with a one-line reason on stderr.
 * A crash counts until the process exits: an error a plugin throws after the answer ends the
 * process at once with 2, never Node's 1. The answer's stdout is held until the race is decided
 * and written only when the answer itself decided the exit code, so a refusal never carries an
 * "allow" on stdout. A plugin's own `process.exit()` cannot pick the code either: the process
 * ends with the decided code, or 2 before there is one.
 */
import { exitNow, println, type Io } from '../io.js'
import { answerStdout } from './answer-stdout.js'

/** Exit 2: Claude Code blocks the call and shows stderr; every other code lets the call through. */
export const BLOCK = 2

/** The longest `--timeout`: Node's timers hold at most 2^31 - 1 ms (a longer one fires after 1 ms). */
export const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * How long the process lives after the answer. Something a plugin left running must not keep
 * Claude Code waiting past its own timeout (which would let the call through).
 */
const EXIT_AFTER_MS = 200

/**
 * Runs `answer` with an `Io` whose stdout is held, and resolves with the exit code: the
 * answer's, or 2 when it throws, anything it started throws or rejects unhandled, or it has not
 * answered within `timeoutMs`. From then on, a crash ends the process with 2, and the process
 * ends with the code `EXIT_AFTER_MS` later (through `io.exit`, else `process.exit`).
 */
export function failClosed(io: Io, timeoutMs: number, answer: (io: Io) => Promise<number>): Promise<number> {
  const stdout = answerStdout(io.stdout)
  return new Promise((resolve) => {
    let decided: number | undefined
    const decide = (code: number, output = '') => {
      if (decided !== undefined) return
      decided = code
      clearTimeout(timer)
      if (output) stdout.write(output)
      setTimeout(() => exitNow(io, code), EXIT_AFTER_MS).unref()
      resolve(code)
    }
    const crash = (error: unknown) => {
      println(io.stderr, `rein hook: rein failed, so the call is refused: ${oneLine(error)}`)
      if (decided === undefined) return decide(BLOCK)
      decided = BLOCK
      exitNow(io, BLOCK)
    }
    const timer = setTimeout(() => {
      println(io.stderr, `rein hook: no answer within ${timeoutMs} ms, so the call is refused`)
      decide(BLOCK)
    }, timeoutMs)
    // Never removed: the process ends soon after the answer, and a crash until then is exit 2.
    process.on('uncaughtException', crash)
    process.on('unhandledRejection', crash)
    // Whoever calls process.exit() (a plugin, with 0), the code is the decided one, else 2.
    process.on('exit', () => {
      if (decided === undefined) println(io.stderr, 'rein hook: the process was ended before an answer, so the call is refused')
      process.exitCode = decided ?? BLOCK
    })
    let held = ''
    const heldIo: Io = { ...io, stdout: { write: (chunk: string) => { held += chunk } } }
    answer(heldIo).then((code) => decide(code, held), crash)
  })
}

/** The message of `error` on one line (a stack trace is never shown). */
function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s*\n\s*/g, ' ')
}
