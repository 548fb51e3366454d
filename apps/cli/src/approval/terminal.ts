/**
 * Asks a person at the terminal whether a call may run. The live view lends the screen; the
 * tool, the reason and the arguments (pretty JSON, a few lines) are shown and one line is
 * read: `y` allows once, `s` for the session, `n` or an empty line denies, `l` (when the session
 * is kept in a file) parks the call for a later answer (`rein approve`), anything else asks
 * again. End of input or an aborted run (Ctrl-C) is a deny. The view is redrawn on every path.
 */
import type { Io, Output } from '../io.js'
import type { Style } from '../progress/style.js'
import type { ProgressView } from '../progress/view.js'
import { RESET_STYLE, safeLine } from '../terminal-text.js'
import type { ApprovalPrompt, ApprovalReply, ApprovalRequest } from './contract.js'

/** The question, as the prompt shows it. */
export const QUESTION = '  Allow? [y] once  [s] for this session  [n] deny: '
/** The question when the call can wait in the session for a later answer. */
export const QUESTION_LATER = '  Allow? [y] once  [s] for this session  [n] deny  [l] decide later: '
/**
 * Lines of arguments shown at most, long lines wrapped, never clipped (a dangerous tail must not
 * fall off the edge); past it the rest is counted, and the answer `v` shows them all.
 */
const MAX_ARG_LINES = 12
/** Unrecognised answers before the call is denied (a prompt that keeps answering nonsense). */
const MAX_TRIES = 5

export interface TerminalAskerOptions {
  prompt: NonNullable<Io['prompt']>
  out: Output
  view: ProgressView
  style: Style
  /** The session is kept (a file): `l` parks the call, answered later with `rein approve`. */
  canPark?: boolean
}

/** An approval prompt that asks at the terminal, one request after the other. */
export function terminalAsker({ prompt, out, view, style, canPark = false }: TerminalAskerOptions): ApprovalPrompt {
  let tail: Promise<unknown> = Promise.resolve()
  const askOne = async ({ exec, reason }: ApprovalRequest): Promise<ApprovalReply> => {
    view.pause()
    try {
      // Styles reset first: nothing printed before (a tool's output, the model's text) can hide the question.
      const width = Math.max(40, (out.columns ?? 100) - 1)
      out.write(RESET_STYLE + describeRequest({ exec, reason }, style, width))
      const all = () => argumentLines(exec.arguments, Infinity, width - 4).map((line) => `${style.dim(`    ${line}`)}\n`).join('')
      const { answer, why, cut } = await readAnswer(prompt, exec.signal, out, canPark, all)
      if (cut) out.write('\n')
      out.write(`${verdictLine(answer, why, style)}\n`)
      return answer
    } finally {
      view.resume()
    }
  }
  return {
    ask(request) {
      const turn = tail.then(() => askOne(request))
      tail = turn.catch(() => undefined)
      return turn
    },
  }
}

/** `y`/`yes`, `s`/`session`, `n`/`no`/empty, and with `canPark` `l`/`later`; `undefined` for anything else. */
export function parseAnswer(line: string, canPark = false): ApprovalReply | undefined {
  const word = line.trim().toLowerCase()
  if (canPark && (word === 'l' || word === 'later')) return 'park'
  if (word === 'y' || word === 'yes') return 'allow-once'
  if (word === 's' || word === 'session') return 'allow-session'
  if (word === '' || word === 'n' || word === 'no') return 'deny'
  return undefined
}

/**
 * The lines above the question: who needs approval and why, then the arguments. The tool's
 * name, the call id, the reason and the arguments come from the model, a tool or a session:
 * their control characters are shown escaped, so none of them can restyle or redraw the screen.
 */
export function describeRequest({ exec, reason }: ApprovalRequest, style: Style, width: number): string {
  const head = `? ${style.bold(`"${safeLine(exec.name)}"`)} (call ${safeLine(exec.id)}) needs approval${reason ? `: ${safeLine(reason)}` : ''}`
  const args = argumentLines(exec.arguments, MAX_ARG_LINES, width - 4).map((line) => style.dim(`    ${line}`))
  return `${[head, ...args].join('\n')}\n`
}

/**
 * The arguments as indented JSON, control characters escaped, each line wrapped at `width`
 * characters, cut to `max` lines (the last one saying how many were left out and how to see them).
 */
export function argumentLines(args: unknown, max: number, width = Infinity): string[] {
  const lines = (JSON.stringify(args, null, 2) ?? String(args)).split('\n').flatMap((line) => wrap(safeLine(line), width))
  if (lines.length <= max) return lines
  const kept = lines.slice(0, max - 1)
  return [...kept, `… (${lines.length - kept.length} more lines: answer v to see them all)`]
}

/** `line` in pieces of at most `width` characters (code points: a pair is never split). */
function wrap(line: string, width: number): string[] {
  const chars = [...line]
  if (chars.length <= width) return [line]
  const pieces: string[] = []
  for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(''))
  return pieces
}

const INTERRUPTED = 'the run was interrupted'

/** What was answered; `cut` when the question line was left without its newline. */
interface Reply {
  answer: ApprovalReply
  why?: string
  cut?: boolean
}

/** Reads answers until one is understood (`v` prints every argument line, `all`); end of input or an abort denies. */
async function readAnswer(prompt: TerminalAskerOptions['prompt'], signal: AbortSignal, out: Output, canPark: boolean, all: () => string): Promise<Reply> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    if (signal.aborted) return { answer: 'deny', why: INTERRUPTED }
    const line = await prompt(canPark ? QUESTION_LATER : QUESTION, signal)
    if (signal.aborted) return { answer: 'deny', why: INTERRUPTED, cut: true }
    if (line === undefined) return { answer: 'deny', why: 'no answer: end of input', cut: true }
    if (/^\s*v(iew)?\s*$/i.test(line)) {
      // Counted as a try: a prompt that only ever answers v ends denied.
      out.write(all())
      continue
    }
    const answer = parseAnswer(line, canPark)
    if (answer) return { answer }
    out.write(`  please answer y, s${canPark ? ', n or l' : ' or n'}\n`)
  }
  return { answer: 'deny', why: `no answer understood after ${MAX_TRIES} tries` }
}

function verdictLine(answer: ApprovalReply, why: string | undefined, style: Style): string {
  // The kernel settles a call whose run was interrupted while asked ABORTED_BEFORE_DISPATCH:
  // nothing was refused, the call simply never started.
  if (why === INTERRUPTED) return style.yellow(`  → not run (${why})`)
  if (answer === 'park') return style.yellow('  → left for later: the call waits in the session (rein approvals lists it, rein approve answers it)')
  if (answer === 'allow-once') return style.green('  → allowed once')
  if (answer === 'allow-session') return style.green('  → allowed for this session (this tool and rule are not asked about again)')
  return style.yellow(`  → denied${why ? ` (${why})` : ''}`)
}
