/**
 * Runs one command with its arguments: parses them (strict), answers `--help`, runs it and
 * turns every failure into a message and an exit code. `main` runs every command through it,
 * and `entry.ts` runs `rein hook` through it without loading the other commands.
 */
import { commandHelp, parseCommand, UsageError, type Command } from './command.js'
import { ExitCodes } from './exit-codes.js'
import { reportFailure } from './failures.js'
import { println, type Io } from './io.js'
import { printJson, problemsOf } from './json.js'

/** Resolves with the exit code of `command` run with `argv` (the arguments after its name). */
export async function runCommand(command: Command, argv: readonly string[], io: Io): Promise<number> {
  let args
  try {
    args = parseCommand(command, argv)
  } catch (error) {
    if (error instanceof UsageError) return usage(io, `${error.message}\n(rein ${command.name} --help shows the options)`)
    throw error
  }
  if (args === 'help') {
    io.stdout.write(commandHelp(command))
    return ExitCodes.OK
  }
  try {
    return await command.run(args, io)
  } catch (error) {
    if (error instanceof UsageError) return usage(io, error.message)
    if (args.values.json === true) printJson(io, { ok: false, problems: problemsOf(error) })
    return reportFailure(error, io, command.name)
  }
}

/** Writes `message` to stderr; resolves with the usage exit code. */
export function usage(io: Io, message: string): number {
  println(io.stderr, message)
  return ExitCodes.USAGE
}
