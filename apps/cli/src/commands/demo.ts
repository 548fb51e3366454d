/**
 * `rein demo`: the runtime at work with no key and no network. A scripted model drives real
 * tools through every standard plugin (loaded from the CLI's own demo/rein.yaml), and the
 * terminal shows each batch live: parallel groups, a barrier, a denial, a timeout, a retry
 * that succeeds, a cache hit, a spilled output and a reference to another call's result.
 * It ends with a summary and leaves the session JSONL (for `rein trace`) and the audit log.
 */
import type { Command } from '../command.js'

/** Where the session goes unless `--session` says otherwise (relative to the working directory). */
export const DEFAULT_DEMO_SESSION = '.rein/demo-session.jsonl'

export const demo: Command = {
  name: 'demo',
  summary: 'watch a scripted model drive real tools through every standard plugin (no key, no network)',
  usage: 'rein demo [--session <path>] [--fast]',
  help: `
Runs a scripted model (no API key, no network) against real demo tools through the standard
plugin stack (audit, cache, retry, timeout-policy, permission-guard, spill) and shows each
batch live: calls starting and finishing in parallel groups, an exclusive write that acts as
a barrier, a denied call, a timeout, a retry that succeeds, a cache hit, a spilled output and
a call that uses another call's result. Ends with a summary and writes the session JSONL
(replaced on every demo run); open it with rein trace.

Options:
  --session <path>     where to write the session (default ${DEFAULT_DEMO_SESSION})
  --fast               ten times shorter simulated latencies (the timeout still takes 500ms)`,
  options: {
    session: { type: 'string' },
    fast: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const { runDemo } = await import('./demo-action.js')
    return runDemo(args, io)
  },
}
