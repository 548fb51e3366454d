/**
 * `rein run "task"`: loads the harness from rein.yaml, runs its agent on the task with live
 * progress and prints the final answer. The session is the file's `session` path (or
 * `--session`), recorded with the timing `rein trace` draws; without either it is kept in
 * memory. Ctrl-C aborts cleanly (exit 130, the session stays valid); a second one exits now.
 */
import { relative, resolve } from 'node:path'
import { stringOption, UsageError, type Command } from '../command.js'
import { println } from '../io.js'
import { runLive } from '../live-run.js'
import { summaryLines } from '../progress/lines.js'
import { RunStats } from '../progress/stats.js'
import { createStyle, wantsColor } from '../progress/style.js'
import { createView } from '../progress/view.js'
import { deferredSession } from '../session/deferred.js'
import { recordingSession } from '../session/recorder.js'

export const run: Command = {
  name: 'run',
  summary: 'run the harness of rein.yaml on a task, with live progress',
  usage: 'rein run [-c rein.yaml] [--session <path>] [--summary] "task"',
  help: `
Loads the harness (provider, plugins, tools, agent settings) from the config file and runs
its agent on the task. Each batch of tool calls is shown live (redrawn on a terminal, one
line per event otherwise); the final answer is printed at the end. Ctrl-C aborts the run
cleanly: no new call starts, running calls finish and are recorded, the session stays valid
(exit 130). A second Ctrl-C exits at once; the next run repairs the session.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml)
  --session <path>     append the conversation to this JSONL session (default: the file's
                       "session" key; without either, the session is kept in memory)
  --summary            print call counts and timing after the answer`,
  options: {
    config: { type: 'string', short: 'c' },
    session: { type: 'string' },
    summary: { type: 'boolean' },
  },
  positionals: { min: 1, max: Infinity },
  async run(args, io) {
    const task = args.positionals.join(' ').trim()
    if (task === '') throw new UsageError(`rein run: the task is empty; usage: ${run.usage}`)
    const [{ jsonlSession, memorySession }, { loadHarness }] = await Promise.all([import('@rein/agent'), import('@rein/loader')])
    const configPath = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    const session = deferredSession()
    const harness = await loadHarness(configPath, { session, env: io.env })
    const option = stringOption(args, 'session')
    const sessionPath = option !== undefined ? resolve(io.cwd, option) : harness.config.session
    const recorder = recordingSession(sessionPath ? jsonlSession(sessionPath) : memorySession(), harness.ctx)
    session.bind(recorder)
    const view = createView(io)
    const stats = new RunStats()
    try {
      const { exitCode } = await runLive({ harness, input: task, io, view, stats })
      view.close()
      if (args.values.summary) {
        for (const line of summaryLines(stats.summary(), createStyle(wantsColor(io.isTTY, io.env)))) println(io.stdout, line)
      }
      if (sessionPath) println(io.stderr, `session: ${relative(io.cwd, sessionPath) || sessionPath}`)
      return exitCode
    } finally {
      view.close()
      await harness.dispose()
      await recorder.close()
    }
  },
}
