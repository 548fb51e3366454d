/**
 * `rein hook claude-code`: rein as Claude Code's `PreToolUse` / `PostToolUse` hook. It fails
 * closed: whatever goes wrong in rein (bad input, a config that does not load, a crash, its own
 * time limit) exits 2, which is the one code Claude Code treats as "block"; stdout carries only
 * the JSON answer, every log line goes to stderr.
 */
import { resolve } from 'node:path'
import { stringOption, UsageError, type Command } from '../command.js'
import { println, type Io } from '../io.js'

/** rein's own limit on one answer; Claude Code's hook timeout (60 s by default) must be longer. */
const DEFAULT_TIMEOUT_MS = 10_000
const BLOCK = 2

export const hook: Command = {
  name: 'hook',
  summary: "answer Claude Code's PreToolUse / PostToolUse hook from rein's policy",
  usage: 'rein hook claude-code [-c rein.yaml] [--timeout ms] [--resident]',
  help: `
Reads one Claude Code hook call (JSON) on stdin and answers it from the harness's plugins
(permission-guard, audit, OTel...) without running any tool. PreToolUse: allow or ask exit 0
with {"hookSpecificOutput":{...}} on stdout; deny exits 2 with the reason on stderr. PostToolUse:
the call is audited, exit 0. Any failure of rein itself also exits 2, so the call is blocked.
See docs/claude-code.md for the .claude/settings.json entry.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml); no provider is needed
  --timeout <ms>       refuse the call (exit 2) if no answer within this time (default ${DEFAULT_TIMEOUT_MS})
  --resident           ask a resident rein process that keeps the harness loaded (started on
                       first use, one per config file; it exits after 10 idle minutes or when
                       the config file changes); without one, the call is answered here
  --serve              be that resident process (what --resident starts)`,
  options: { config: { type: 'string', short: 'c' }, timeout: { type: 'string' }, resident: { type: 'boolean' }, serve: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    if (args.positionals[0] !== 'claude-code') throw new UsageError(`rein hook: unknown host "${args.positionals[0]}"; the one host is claude-code`)
    const timeoutMs = Number(stringOption(args, 'timeout', String(DEFAULT_TIMEOUT_MS)))
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError('rein hook: --timeout must be a positive whole number of milliseconds')
    const file = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    if (args.values.serve) return (await import('../hook/resident.js')).serveResident(file, io)
    const code = await failClosed(io, timeoutMs, async () => {
      if (!io.stdin) throw new Error('no stdin to read the hook input from')
      const text = await (await import('../hook/input.js')).readAll(io.stdin)
      if (args.values.resident) {
        const answered = await (await import('../hook/resident.js')).askResident(file, text, io)
        if (answered !== undefined) return answered
      }
      const [{ Logger }, { claudeCodeHook }] = await Promise.all([import('cordis'), import('../hook/claude-code.js')])
      // cordis' logger prints to stdout, which carries the answer only.
      for (const target of Logger.targets) target.print = (text: string) => println(io.stderr, text)
      return claudeCodeHook(text, file, io)
    })
    // Something a plugin left running must not keep Claude Code waiting past its own timeout
    // (which would let the call through): the answer is out, so the process ends soon.
    setTimeout(() => (io.exit ?? process.exit)(code), 200).unref()
    return code
  },
}

/**
 * Runs `answer` so that every way it can fail is exit 2 with a one-line reason on stderr: a
 * throw, an uncaught error from anything it started, and no answer within `timeoutMs`.
 */
async function failClosed(io: Io, timeoutMs: number, answer: () => Promise<number>): Promise<number> {
  let crash!: (error: unknown) => void
  const crashed = new Promise<number>((resolve) => {
    crash = (error) => {
      println(io.stderr, `rein hook: rein failed, so the call is refused: ${error instanceof Error ? error.message : String(error)}`)
      resolve(BLOCK)
    }
  })
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      println(io.stderr, `rein hook: no answer within ${timeoutMs} ms, so the call is refused`)
      resolve(BLOCK)
    }, timeoutMs)
  })
  process.on('uncaughtException', crash)
  process.on('unhandledRejection', crash)
  try {
    return await Promise.race([answer().catch((error: unknown) => { crash(error); return BLOCK }), crashed, late])
  } finally {
    clearTimeout(timer)
    process.off('uncaughtException', crash)
    process.off('unhandledRejection', crash)
  }
}
