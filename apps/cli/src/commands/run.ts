/**
 * `rein run "task"`: loads the harness from rein.yaml, runs its agent on the task with live
 * progress and prints the final answer. The session is the file's `session` path (or
 * `--session`; the agent writes the timing `rein trace` draws into it); without either it
 * is kept in memory. Ctrl-C aborts cleanly (exit 130, the session stays valid); a second one
 * exits now. Calls that need approval are asked about at the terminal, or answered by `--approve`;
 * a run that parks calls for a later answer exits 3, and `--continue` goes on once they are answered.
 * With `--json`, nothing is drawn and stdout is one JSON document once the run is over.
 */
import type { Command } from '../command.js'

export const run: Command = {
  name: 'run',
  summary: 'run the harness of rein.yaml on a task, with live progress',
  usage: 'rein run [-c rein.yaml] [--session <path>] [--summary] [--approve ask|deny|allow] [--json] ("task" | --continue)',
  help: `
Loads the harness (provider, plugins, tools, agent settings) from the config file and runs
its agent on the task. Each batch of tool calls is shown live (redrawn on a terminal, one
line per event otherwise); the final answer is printed at the end. Ctrl-C aborts the run
cleanly: no new call starts, running calls finish and are recorded, the session stays valid
(exit 130). A second Ctrl-C exits at once; the next run repairs the session.

A call that needs approval (an "ask" rule of @rein/plugin-permission-guard) is shown with
its reason and arguments, and you answer y (allow once), s (allow this tool and rule for
the rest of the run) or n (deny); when the session is kept in a file, l (decide later) leaves
the call waiting in it. Without a terminal to ask at, it is denied and a line says so; end of
input or Ctrl-C while asked also deny.

A run whose calls wait for a later answer (l, or agent.approvals: park in the config) runs
every call it can, lists what waits with the rein approve line for each, and exits 3. Once
they are answered, rein run --continue goes on with the session where it stopped.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml)
  --session <path>     append the conversation to this JSONL session (default: the file's
                       "session" key; without either, the session is kept in memory)
  --continue           no task: go on with the session (the calls answered with rein approve
                       run, through every plugin again; those still unanswered are asked
                       about, or wait again)
  --summary            print call counts and timing after the answer
  --approve <mode>     how calls that need approval are answered: ask (default; at the
                       terminal, denied without one), deny (every one, without asking) or
                       allow (every one, once each, without asking; for trusted scripts
                       and CI, and a warning line says so)
  --json               no live progress; print the outcome, the answer and every call as
                       one JSON document on stdout when the run is over (nobody is asked:
                       with --approve ask, calls that need approval are denied)`,
  options: {
    config: { type: 'string', short: 'c' },
    session: { type: 'string' },
    summary: { type: 'boolean' },
    approve: { type: 'string' },
    continue: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  positionals: { min: 0, max: Infinity },
  async run(args, io) {
    const { runTask } = await import('./run-action.js')
    return runTask(args, io)
  },
}
