/**
 * Asks a person at the terminal whether a call may run. The live view lends the screen; the
 * tool, the reason and the arguments (pretty JSON, a few lines) are shown and one line is
 * read: `y` allows once, `s` for the session, `n` or an empty line denies, anything else asks
 * again. End of input or an aborted run (Ctrl-C) is a deny. The view is redrawn on every path.
 */
import type { Io, Output } from '../io.js'
import { clip } from '../progress/format.js'
import type { Style } from '../progress/style.js'
import type { ProgressView } from '../progress/view.js'
import type { ApprovalAnswer, ApprovalPrompt, ApprovalRequest } from './contract.js'

/** The question, as the prompt shows it. */
export const QUESTION = '  Allow? [y] once  [s] for this session  [n] deny: '
/** Lines of arguments shown at most; the rest is counted. */
const MAX_ARG_LINES = 8
/** Unrecognised answers before the call is denied (a prompt that keeps answering nonsense). */
const MAX_TRIES = 5

export interface TerminalAskerOptions {
  prompt: NonNullable<Io['prompt']>
  out: Output
  view: ProgressView
  style: Style
}

/** An approval prompt that asks at the terminal, one request after the other. */
export function terminalAsker({ prompt, out, view, style }: TerminalAskerOptions): ApprovalPrompt {
  let tail: Promise<unknown> = Promise.resolve()
  const askOne = async ({ exec, reason }: ApprovalRequest): Promise<ApprovalAnswer> => {
    view.pause()
    try {
      out.write(describeRequest({ exec, reason }, style, Math.max(40, (out.columns ?? 100) - 1)))
      const { answer, why, cut } = await readAnswer(prompt, exec.signal, out)
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

/** `y`/`yes`, `s`/`session`, `n`/`no`/empty; `undefined` for anything else. */
export function parseAnswer(line: string): ApprovalAnswer | undefined {
  const word = line.trim().toLowerCase()
  if (word === 'y' || word === 'yes') return 'allow-once'
  if (word === 's' || word === 'session') return 'allow-session'
  if (word === '' || word === 'n' || word === 'no') return 'deny'
  return undefined
}

/** The lines above the question: who needs approval and why, then the arguments. */
export function describeRequest({ exec, reason }: ApprovalRequest, style: Style, width: number): string {
  const head = `? ${style.bold(`"${exec.name}"`)} (call ${exec.id}) needs approval${reason ? `: ${reason}` : ''}`
  const args = argumentLines(exec.arguments, MAX_ARG_LINES).map((line) => style.dim(clip(`    ${line}`, width)))
  return `${[head, ...args].join('\n')}\n`
}

/** The arguments as indented JSON, cut to `max` lines (the last one saying how many were left out). */
export function argumentLines(args: unknown, max: number): string[] {
  const lines = (JSON.stringify(args, null, 2) ?? String(args)).split('\n')
  if (lines.length <= max) return lines
  const kept = lines.slice(0, max - 1)
  return [...kept, `… (${lines.length - kept.length} more lines)`]
}

const INTERRUPTED = 'the run was interrupted'

/** What was answered; `cut` when the question line was left without its newline. */
interface Reply {
  answer: ApprovalAnswer
  why?: string
  cut?: boolean
}

/** Reads answers until one is understood; end of input or an abort denies. */
async function readAnswer(prompt: TerminalAskerOptions['prompt'], signal: AbortSignal, out: Output): Promise<Reply> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    if (signal.aborted) return { answer: 'deny', why: INTERRUPTED }
    const line = await prompt(QUESTION, signal)
    if (signal.aborted) return { answer: 'deny', why: INTERRUPTED, cut: true }
    if (line === undefined) return { answer: 'deny', why: 'no answer: end of input', cut: true }
    const answer = parseAnswer(line)
    if (answer) return { answer }
    out.write(`  please answer y, s or n\n`)
  }
  return { answer: 'deny', why: `no answer understood after ${MAX_TRIES} tries` }
}

function verdictLine(answer: ApprovalAnswer, why: string | undefined, style: Style): string {
  // The kernel settles a call whose run was interrupted while asked ABORTED_BEFORE_DISPATCH:
  // nothing was refused, the call simply never started.
  if (why === INTERRUPTED) return style.yellow(`  → not run (${why})`)
  if (answer === 'allow-once') return style.green('  → allowed once')
  if (answer === 'allow-session') return style.green('  → allowed for this session (this tool and rule are not asked about again)')
  return style.yellow(`  → denied${why ? ` (${why})` : ''}`)
}
