/**
 * What `rein run` does (its options are in `run.ts`): loads the harness, answers approvals,
 * runs the agent on the task with live progress (or quietly, for `--json`) and reports the
 * outcome. Imported only when the command runs, with the agent, the loader and the live view.
 */
import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { APPROVE_MODES, type ApproveMode } from '../approval/contract.js'
import type { ParkedCall } from '@rein/agent'
import { printRequests, waitingCalls } from '../approval/pending.js'
import { approvalPrompt, provideApprovalPrompt } from '../approval/provide.js'
import { shellWord } from '../approval/session-source.js'
import { stringOption, UsageError, type Parsed } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { reportWarnings } from '../failures.js'
import { println, type Io } from '../io.js'
import { printJson } from '../json.js'
import { runLive } from '../live-run.js'
import { summaryLines } from '../progress/lines.js'
import { QuietView } from '../progress/quiet-view.js'
import { runJson } from '../progress/run-json.js'
import { RunStats } from '../progress/stats.js'
import { createStyle, wantsColor } from '../progress/style.js'
import { createView } from '../progress/view.js'
import { safeText } from '../terminal-text.js'
import { run } from './run.js'

/** Runs the task of the command line; resolves with the exit code of the run. Throws `UsageError`. */
export async function runTask(args: Parsed, io: Io): Promise<number> {
  const task = taskOf(args)
  const approve = approveMode(stringOption(args, 'approve', 'ask'))
  const [{ jsonlSession }, { loadHarness }] = await Promise.all([import('@rein/agent'), import('@rein/loader')])
  const configPath = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
  // --session overrides the file's `session` path; without either the session is in memory.
  // A store passed here is ours to close; one the loader opens from the file, the loader closes.
  const option = stringOption(args, 'session')
  const store = option !== undefined ? jsonlSession(resolve(io.cwd, option)) : undefined
  const harness = await loadHarness(configPath, { env: io.env, ...(store ? { session: store } : {}) })
  reportWarnings(harness.warnings, io, 'run')
  const sessionPath = option !== undefined ? resolve(io.cwd, option) : harness.config.session
  const json = args.values.json === true
  const view = json ? new QuietView(io.stderr) : createView(io)
  const stats = new RunStats()
  let removeApproval = () => {}
  try {
    const prompt = approvalPrompt(approve, json ? { ...io, isTTY: false } : io, view, { canPark: sessionPath !== undefined })
    removeApproval = provideApprovalPrompt(harness.ctx, prompt)
    if (task === undefined) {
      const answer = await finishedAnswer(sessionPath, io)
      if (answer !== undefined) {
        println(io.stderr, 'rein run: nothing to continue: the session ends with the model\'s answer (below); start a new task instead')
        println(io.stdout, safeText(answer))
        return ExitCodes.OK
      }
    }
    const { outcome, exitCode } = await runLive({ harness, input: task, io, view, stats })
    view.close()
    if (json) {
      printJson(io, runJson(outcome, stats, sessionPath))
      return exitCode
    }
    // An interrupt can end a run with calls parked too: they wait all the same.
    const waiting = waitingCalls(outcome)
    if (waiting) reportParked(waiting, io, sessionFlags(args, sessionPath))
    if (args.values.summary) {
      for (const line of summaryLines(stats.summary(), createStyle(wantsColor(io.isTTY, io.env)))) println(io.stdout, line)
    }
    if (sessionPath) println(io.stderr, `session: ${relative(io.cwd, sessionPath) || sessionPath}`)
    return exitCode
  } finally {
    view.close()
    removeApproval()
    await harness.dispose()
    await store?.close?.()
  }
}

/** The task of the command line, or undefined with `--continue`. Throws `UsageError`. */
function taskOf(args: Parsed): string | undefined {
  const task = args.positionals.join(' ').trim()
  if (args.values.continue === true) {
    if (args.positionals.length > 0) throw new UsageError(`rein run: --continue takes no task: it goes on with the session as it stands; usage: ${run.usage}`)
    return undefined
  }
  if (task === '') throw new UsageError(`rein run: the task is empty; usage: ${run.usage}`)
  return task
}

/**
 * For `--continue`: the final answer a session already ends with (nothing to continue), else
 * undefined. Throws when there is no kept session, or it is missing or empty: asking the model
 * again with nothing new would add a turn nobody asked for.
 */
async function finishedAnswer(sessionPath: string | undefined, io: Io): Promise<string | undefined> {
  if (sessionPath === undefined) {
    throw new UsageError('rein run: --continue goes on with a session kept in a file: pass --session <path>, or set "session:" in rein.yaml')
  }
  const label = relative(io.cwd, sessionPath) || sessionPath
  const { readSession } = await import('@rein/agent')
  if (!existsSync(sessionPath)) throw new Error(`nothing to continue: no session file at ${label}`)
  const last = (await readSession(sessionPath)).entries.findLast((entry) => entry.type !== 'state')
  if (last === undefined) throw new Error(`nothing to continue: the session ${label} is empty`)
  if (last.type !== 'message' || last.message.role !== 'assistant' || last.message.toolCalls?.length) return undefined
  return last.message.content
}

/** The options that name the run's session again (`--session` or `-c`); undefined when it is in memory. */
function sessionFlags(args: Parsed, sessionPath: string | undefined): string[] | undefined {
  if (sessionPath === undefined) return undefined
  const session = stringOption(args, 'session')
  if (session !== undefined) return ['--session', session]
  const config = stringOption(args, 'config')
  return config === undefined ? [] : ['-c', config]
}

/** What waits, how to answer each, and how the run goes on; a session in memory cannot be answered. */
function reportParked(requests: readonly ParkedCall[], io: Io, flags: string[] | undefined): void {
  if (flags === undefined) {
    println(io.stderr, 'rein run: calls wait for approval, but the session is kept in memory and ends with this run, so they cannot be answered; ' +
      'give the run a session (--session <path>, or "session:" in rein.yaml) to answer them later')
    return
  }
  printRequests(io.stderr, `rein run: ${requests.length} call${requests.length === 1 ? '' : 's'} wait${requests.length === 1 ? 's' : ''} for approval:`, requests, flags)
  println(io.stderr, `once answered, go on with: rein run --continue${flags.length ? ` ${flags.map(shellWord).join(' ')}` : ''}`)
}

function approveMode(value: string): ApproveMode {
  const mode = APPROVE_MODES.find((m) => m === value)
  if (!mode) throw new UsageError(`rein run: --approve must be one of ${APPROVE_MODES.join(', ')}, not "${value}"`)
  return mode
}
