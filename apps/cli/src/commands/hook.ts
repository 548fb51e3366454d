/**
 * `rein hook claude-code`: rein as Claude Code's `PreToolUse` / `PostToolUse` hook. It fails
 * closed (`hook/fail-closed.ts`): whatever goes wrong in rein (bad input, a config that does
 * not load, a crash at any moment until the process exits, its own time limit) exits 2, which
 * is the one code Claude Code treats as "block"; stdout carries only the JSON answer, every
 * other write and every log line goes to stderr.
 */
import { resolve } from 'node:path'
import { stringOption, UsageError, type Command, type Parsed } from '../command.js'
import { failClosed, MAX_TIMEOUT_MS } from '../hook/fail-closed.js'
import { println } from '../io.js'

/** rein's own limit on one answer; Claude Code's hook timeout (60 s by default) must be longer. */
const DEFAULT_TIMEOUT_MS = 10_000

/** `rein hook claude-code`: the command's options and help; the work is in `src/hook/`. */
export const hook: Command = {
  name: 'hook',
  summary: "answer Claude Code's PreToolUse / PostToolUse hook from rein's policy",
  usage: 'rein hook claude-code [-c rein.yaml] [--timeout ms] [--resident]',
  help: `
Reads one Claude Code hook call (JSON) on stdin and answers it from the harness's plugins
(permission-guard, audit, OTel...) without running any tool. PreToolUse: allow or ask exit 0
with {"hookSpecificOutput":{...}} on stdout; deny exits 2 with the reason on stderr. PostToolUse:
the call is audited, exit 0. Any failure of rein itself also exits 2, so the call is blocked.
The harness is loaded in the input's cwd, so rules written ./x are read from there.
See docs/claude-code.md for the .claude/settings.json entry.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml); no provider is needed
  --timeout <ms>       refuse the call (exit 2) if no answer within this time
                       (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS})
  --resident           ask a resident rein process that keeps the harness loaded (started on
                       first use, one per config file and cwd; it exits after 10 idle minutes or
                       when a file it loaded changes); without one, the call is answered here
  --serve              be that resident process, for the working directory (what --resident starts)`,
  options: { config: { type: 'string', short: 'c' }, timeout: { type: 'string' }, resident: { type: 'boolean' }, serve: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    if (args.positionals[0] !== 'claude-code') throw new UsageError(`rein hook: unknown host "${args.positionals[0]}"; the one host is claude-code`)
    const timeoutMs = timeoutOf(args)
    const file = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    if (args.values.serve) return (await import('../hook/resident.js')).serveResident(file, io)
    return failClosed(io, timeoutMs, async (held) => {
      if (!held.stdin) throw new Error('no stdin to read the hook input from')
      const text = await (await import('../hook/input.js')).readAll(held.stdin)
      if (args.values.resident) {
        const answered = await (await import('../hook/resident.js')).askResident(file, text, held)
        if (answered !== undefined) return answered
      }
      const [{ Logger }, { claudeCodeHook }] = await Promise.all([import('cordis'), import('../hook/claude-code.js')])
      // cordis' logger prints to stdout, which carries the answer only.
      for (const target of Logger.targets) target.print = (text: string) => println(held.stderr, text)
      return claudeCodeHook(text, file, held)
    })
  },
}

/** The `--timeout` in milliseconds; a `UsageError` unless it is a whole number from 1 to `MAX_TIMEOUT_MS`. */
function timeoutOf(args: Parsed): number {
  const ms = Number(stringOption(args, 'timeout', String(DEFAULT_TIMEOUT_MS)))
  if (Number.isInteger(ms) && ms > 0 && ms <= MAX_TIMEOUT_MS) return ms
  throw new UsageError(`rein hook: --timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (the longest timer Node keeps)`)
}
