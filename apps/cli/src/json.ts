/**
 * `--json` output for scripts and CI: exactly one JSON document on stdout, written once when
 * the command is done, with `ok` first; text for people (warnings, problems) still goes to
 * stderr. A failure always has `problems`, one per problem, each with the sentence a person
 * would read and, when known, where it is. The loader's errors are read by shape, so this
 * module does not load the loader.
 */
import type { Io } from './io.js'

/** One problem: the whole sentence, plus its place when the source knows it. */
export interface JsonProblem {
  message: string
  file?: string
  line?: number
  /** The config entry (`plugins[2] (@rein/plugin-retry)`), for config problems. */
  entry?: string
  /** The tool, for few-shot example problems. */
  tool?: string
}

/** Writes `value` as the command's one JSON document. */
export function printJson(io: Io, value: { ok: boolean } & Record<string, unknown>): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** The problems an error stands for: each of a `ConfigErrors`, a `ConfigError`, else the error itself. */
export function problemsOf(error: unknown): JsonProblem[] {
  if (!(error instanceof Error)) return [{ message: String(error) }]
  const { errors } = error as { errors?: unknown }
  if (error.name === 'ConfigErrors' && Array.isArray(errors)) return errors.flatMap(problemsOf)
  return [located(error)]
}

function located(error: Error): JsonProblem {
  const { file, line, entry } = error as { file?: unknown, line?: unknown, entry?: unknown }
  return {
    message: error.message,
    ...(typeof file === 'string' ? { file } : {}),
    ...(typeof line === 'number' ? { line } : {}),
    ...(typeof entry === 'string' ? { entry } : {}),
  }
}
