/**
 * `main(argv, io)`: the whole `rein` command as a function. It picks the command, parses its
 * options, runs it and resolves with the exit code; it never calls `process.exit` itself
 * (only a second Ctrl-C does, through `io.exit`), so tests can run commands in process.
 * Every command module is imported here, so each holds only what help shows (name, options,
 * help text) and imports what it does (the runtime, the live view, the trace renderer) only
 * when it runs: help and usage errors answer at about the speed of a bare Node start, and a
 * command loads nothing another command needs.
 */
import { readFileSync } from 'node:fs'
import { didYouMean } from '@rein/loader/suggest'
import { commandHelp, type Command } from './command.js'
import { approvals } from './commands/approvals.js'
import { approve } from './commands/approve.js'
import { cancel } from './commands/cancel.js'
import { chains } from './commands/chains.js'
import { check } from './commands/check.js'
import { db } from './commands/db.js'
import { demo } from './commands/demo.js'
import { hook } from './commands/hook.js'
import { init } from './commands/init.js'
import { mcp } from './commands/mcp.js'
import { run } from './commands/run.js'
import { submit } from './commands/submit.js'
import { trace } from './commands/trace.js'
import { worker } from './commands/worker.js'
import { EXIT_CODES_HELP, ExitCodes } from './exit-codes.js'
import { println, type Io } from './io.js'
import { runCommand, usage } from './run-command.js'

/** Every command, in the order `rein --help` lists them. */
export const COMMANDS: readonly Command[] = [demo, init, run, approvals, approve, check, chains, trace, mcp, worker, submit, cancel, db, hook]

/** Runs `rein` with `argv` (the arguments after the script name). Resolves with the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined) {
    io.stderr.write(topHelp())
    return ExitCodes.USAGE
  }
  if (first === '-h' || first === '--help') {
    io.stdout.write(topHelp())
    return ExitCodes.OK
  }
  if (first === '-V' || first === '-v' || first === '--version') {
    println(io.stdout, version())
    return ExitCodes.OK
  }
  if (first === 'help') return help(rest, io)
  const command = COMMANDS.find((c) => c.name === first)
  if (!command) return usage(io, `rein: unknown command "${first}"${suggest(first)}; run rein --help for the list`)
  return runCommand(command, rest, io)
}

function help(rest: readonly string[], io: Io): number {
  const name = rest[0]
  if (name === undefined) {
    io.stdout.write(topHelp())
    return ExitCodes.OK
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (!command) return usage(io, `rein help: unknown command "${name}"${suggest(name)}`)
  io.stdout.write(commandHelp(command))
  return ExitCodes.OK
}

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2
  return [
    'Usage: rein <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options:',
    '  -h, --help     show help (rein <command> --help for a command)',
    '  -V, --version  print the version',
    '',
    EXIT_CODES_HELP,
    '',
  ].join('\n')
}

/** The nearest command name within two edits, as a hint (the loader's one spelling helper). */
function suggest(name: string): string {
  return didYouMean(name, COMMANDS.map((c) => c.name))
}

/** The package version; the manifest is one folder up from `src/`, two from `dist/src/`. */
function version(): string {
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string, version?: string }
      if (manifest.name === '@rein/cli') return `rein ${manifest.version}`
    } catch {
      // not this folder
    }
  }
  return 'rein (unknown version)'
}
