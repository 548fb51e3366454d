/**
 * The shape of a command and how its arguments are read (Node's `parseArgs`, strict). A
 * wrong command line is a `UsageError` (exit 2) whose message says what was wrong; every
 * command gets `-h, --help`, and its help text always ends with the exit-code table.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { EXIT_CODES_HELP } from './exit-codes.js'
import type { Io } from './io.js'

/** The options a command accepts, as `parseArgs` takes them. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>

/** The command line after parsing. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>
  positionals: string[]
}

/** One `rein <name>` command. */
export interface Command {
  name: string
  /** One line for `rein --help`. */
  summary: string
  /** The synopsis: `rein trace <session.jsonl> [-o trace.html]`. */
  usage: string
  /** What it does and its options, as printed by `rein <name> --help` (before the exit codes). */
  help: string
  options: OptionSpec
  /** How many positional arguments it takes. */
  positionals: { min: number, max: number }
  /** Runs it; resolves with the exit code. May throw (the caller reports the error, exit 1). */
  run(args: Parsed, io: Io): Promise<number>
}

/** The command line is wrong; the message says how. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** Parses `argv` for `command`; `'help'` when `-h`/`--help` was given. Throws `UsageError`. */
export function parseCommand(command: Command, argv: readonly string[]): Parsed | 'help' {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw new UsageError(`rein ${command.name}: ${(error as Error).message.replace(/\. To specify a positional.*$/s, '')}`)
  }
  if (parsed.values.help) return 'help'
  const { min, max } = command.positionals
  const count = parsed.positionals.length
  if (count < min) throw new UsageError(`rein ${command.name}: missing argument; usage: ${command.usage}`)
  if (count > max) {
    throw new UsageError(`rein ${command.name}: unexpected argument "${parsed.positionals[max]}"; usage: ${command.usage}`)
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals }
}

/** The full help text of a command. */
export function commandHelp(command: Command): string {
  return `Usage: ${command.usage}\n\n${command.help.trim()}\n  -h, --help           show this help\n\n${EXIT_CODES_HELP}\n`
}

/** A string option's value, or `fallback`. */
export function stringOption(args: Parsed, name: string, fallback: string): string
export function stringOption(args: Parsed, name: string): string | undefined
export function stringOption(args: Parsed, name: string, fallback?: string): string | undefined {
  const value = args.values[name]
  return typeof value === 'string' ? value : fallback
}
