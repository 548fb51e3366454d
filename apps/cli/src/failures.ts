/**
 * How a config problem or an error that escaped a command reaches the person. The loader's
 * errors are recognised by name, so that this module need not load the loader: a
 * `ConfigError` prints its own sentence (file, line, entry, what to do), and `ConfigErrors`
 * one such line per problem, each prefixed with the command. Anything else prints its
 * message, and its stack when `REIN_DEBUG` is set. Always exit 1: usage errors are handled earlier.
 */
import { ExitCodes } from './exit-codes.js'
import { println, type Io } from './io.js'

/** Prints `error` for command `name` and returns the exit code. */
export function reportFailure(error: unknown, io: Io, name: string): number {
  const lines = configProblemLines(error)
  if (lines) {
    for (const line of lines) println(io.stderr, `rein ${name}: ${line}`)
  } else {
    const message = error instanceof Error ? error.message : String(error)
    // Library errors name their function (`submit: ...`); when that is the command's own name, once is enough.
    println(io.stderr, `rein ${name}: ${message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message}`)
    if (io.env.REIN_DEBUG && error instanceof Error && error.stack) println(io.stderr, error.stack)
  }
  return ExitCodes.FAILURE
}

/** One line per config problem when `error` is the loader's `ConfigErrors` or `ConfigError`; else undefined. */
export function configProblemLines(error: unknown): string[] | undefined {
  if (!(error instanceof Error)) return undefined
  const { errors } = error as { errors?: unknown }
  if (error.name === 'ConfigErrors' && Array.isArray(errors)) {
    return errors.map((e: unknown) => e instanceof Error ? e.message : String(e))
  }
  return error.name === 'ConfigError' ? [error.message] : undefined
}

/** Prints the harness's warnings (optional entries that failed and were left out), one line each. */
export function reportWarnings(warnings: readonly string[], io: Io, name: string): void {
  for (const warning of warnings) println(io.stderr, `rein ${name}: warning: ${warning}`)
}
