/**
 * How an error that escaped a command reaches the person: a config problem (the loader's
 * `ConfigError`, recognised by name so that this module need not load the loader) prints
 * its own sentence (file, line, entry, what to do); anything else prints its message, and
 * its stack when `REIN_DEBUG` is set. Always exit 1: usage errors are handled earlier.
 */
import { ExitCodes } from './exit-codes.js'
import { println, type Io } from './io.js'

/** Prints `error` for command `name` and returns the exit code. */
export function reportFailure(error: unknown, io: Io, name: string): number {
  if (error instanceof Error && error.name === 'ConfigError') {
    println(io.stderr, `rein ${name}: ${error.message}`)
  } else {
    const message = error instanceof Error ? error.message : String(error)
    println(io.stderr, `rein ${name}: ${message}`)
    if (io.env.REIN_DEBUG && error instanceof Error && error.stack) println(io.stderr, error.stack)
  }
  return ExitCodes.FAILURE
}
