/**
 * The text of progress lines, shared by the plain and the live view so that both say the
 * same thing: a call starting, a call finished (outcome, time, notes), a batch over (which
 * calls ran together, wall time against call time), and the run summary.
 */
import { APPROVAL_PARKED } from '@rein/kernel'
import { safeLine } from '../terminal-text.js'
import { argsPreview, formatBytes, formatMs, notesOf, outcomeOf } from './format.js'
import type { Summary } from './stats.js'
import type { Style } from './style.js'
import type { LiveCall, TurnReport } from './view.js'

/** How a call may run, in words. */
export function modeLabel(call: LiveCall): string {
  return call.mode === 'parallel' ? 'parallel' : 'exclusive: a barrier'
}

/** `✓` / `✗` (`▶` while running, `⏸` when it waits for a person's approval), coloured by outcome. */
export function mark(call: LiveCall, style: Style): string {
  if (!call.result) return style.cyan('▶')
  const outcome = outcomeOf(call.result)
  if (outcome === 'ok') return style.green('✓')
  if (outcome === APPROVAL_PARKED) return style.yellow('⏸')
  return paintOutcome(outcome, style)('✗')
}

/** The outcome word, coloured: ok green, denials and parked calls yellow, aborts dim, other failures red. */
export function outcomeText(call: LiveCall, style: Style): string {
  if (!call.result) return ''
  const outcome = outcomeOf(call.result)
  return paintOutcome(outcome, style)(outcome)
}

function paintOutcome(outcome: string, style: Style) {
  if (outcome === 'ok') return style.green
  if (outcome === 'TOOL_DENIED' || outcome === 'TOOL_BLOCKED' || outcome === APPROVAL_PARKED) return style.yellow
  if (outcome.startsWith('ABORTED')) return style.dim
  if (outcome === 'TOOL_TIMEOUT') return style.magenta
  return style.red
}

/** `▶ c1 lookup {"key":"a"}  · parallel` */
export function startLine(call: LiveCall, style: Style, width: number): string {
  const head = `${safeLine(call.id)} ${safeLine(call.name)} `
  const tail = `  · ${modeLabel(call)}`
  const args = argsPreview(call.arguments, Math.max(10, width - head.length - tail.length - 6))
  return `  ${mark(call, style)} ${style.bold(head)}${style.dim(args)}${style.dim(tail)}`
}

/** `✓ c1 lookup ok 402ms · cache hit`; the notes (a denial's or a failure's reason) are never cut. */
export function endLine(call: LiveCall, style: Style): string {
  const notes = call.result ? notesOf(call.result, Infinity) : []
  const time = formatMs(call.durationMs ?? 0)
  const head = `${safeLine(call.id)} ${safeLine(call.name)} `
  const rest = notes.length ? `  · ${notes.join(' · ')}` : ''
  return `  ${mark(call, style)} ${style.bold(head)}${outcomeText(call, style)} ${time}${style.dim(rest)}`
}

/** `turn 1 committed: 6 calls ran as [c1 c2 c3] → [c4] → [c5 c6]; 812ms wall, 1.31s of call time` */
export function turnLine(report: TurnReport, style: Style): string {
  const groups = report.groups.map((g) => `[${g.map(safeLine).join(' ')}]`).join(' → ')
  const count = `${report.calls.length} call${report.calls.length === 1 ? '' : 's'}`
  return style.dim(`  turn ${report.turn} ${report.outcome}: ${count} ran as ${groups || '(none)'}; `) +
    style.dim(`${formatMs(report.wallMs)} wall, ${formatMs(report.serialMs)} of call time`)
}

/** The summary block at the end of a run. */
export function summaryLines(summary: Summary, style: Style): string[] {
  const outcomes = summary.outcomes.map(([outcome, n]) => `${n} ${outcome}`).join(', ')
  const speedup = sideBySideGain(summary)
  return [
    style.bold('summary'),
    `  calls        ${summary.calls}${outcomes ? ` (${outcomes})` : ''}`,
    `  retried      ${summary.retried} call${summary.retried === 1 ? '' : 's'}`,
    `  cache hits   ${summary.cacheHits}`,
    `  spilled      ${summary.spilled} output${summary.spilled === 1 ? '' : 's'}${summary.spilledBytes ? ` (${formatBytes(summary.spilledBytes)} kept out of the context)` : ''}`,
    `  time         ${formatMs(summary.wallMs)} wall in tool batches; ${formatMs(summary.serialMs)} if run one by one${speedup}`,
  ]
}

/**
 * ` (2.4x from running calls side by side)`, only when calls did run side by side and it
 * paid: a run of single calls has nothing to compare, and a factor below 1 is not a gain.
 */
function sideBySideGain(summary: Summary): string {
  if (summary.largestGroup < 2 || summary.wallMs <= 0) return ''
  const factor = summary.serialMs / summary.wallMs
  return factor >= 1.05 ? ` (${factor.toFixed(1)}x from running calls side by side)` : ''
}
