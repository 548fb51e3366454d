/**
 * What `${env:NAME}` put into a config never leaves the loader in an error or a warning. The
 * values are collected per load (`readHarnessConfig`), and every `ConfigError` thrown out of a
 * load, or later by the loaded harness's `agent` and `agentFor`, is rebuilt with each of them
 * replaced by `[REDACTED]` (in every spelling `@rein/redact` knows) and without its `cause`,
 * which may quote them; so is every warning, and every problem `checkExamples` and
 * `loadExamples` report for the loaded config. A value shorter than `@rein/redact`'s
 * `MIN_SECRET_LENGTH` characters (a `3`, `on`) is not a secret, and is left as it is.
 */
import { createRedactor, MIN_SECRET_LENGTH, type Redactor } from '@rein/redact'
import type { BuiltHarness } from './build.js'
import { ConfigError, ConfigErrors } from './errors.js'
import type { ExampleProblem } from './example-types.js'
import type { HarnessConfig } from './config.js'

/** The redactor of each config loaded with substituted values, for the examples' problems (`redactProblems`). */
const configRedactors = new WeakMap<HarnessConfig, Redactor>()

/** The redactor of the substituted `values` worth hiding; undefined when there is none. */
export function envRedactor(values: Iterable<string>): Redactor | undefined {
  const secrets = [...values].filter((value) => value.trim().length >= MIN_SECRET_LENGTH)
  return secrets.length ? createRedactor(secrets, { builtIn: false }) : undefined
}

/**
 * `error` with the values of `redact` taken out: a `ConfigErrors` or `ConfigError` is rebuilt
 * (message and entry redacted, no `cause`); anything else is returned as it is.
 */
export function redactError(error: unknown, redact: Redactor | undefined): unknown {
  if (redact === undefined) return error
  if (error instanceof ConfigErrors) return new ConfigErrors(error.errors.map((each) => redactOne(each, redact)))
  if (error instanceof ConfigError) return redactOne(error, redact)
  return error
}

/** What `work` returns; what it throws, through `redactError`. */
export function redactingErrors<T>(redact: Redactor | undefined, work: () => T): T {
  try {
    return work()
  } catch (error) {
    throw redactError(error, redact)
  }
}

function redactOne(error: ConfigError, redact: Redactor): ConfigError {
  const entry = error.entry === undefined ? undefined : redact(error.entry)
  return new ConfigError(error.code, { file: error.file, line: error.line, entry }, redact(error.detail))
}

/**
 * Redacts `harness`'s warnings in place, and from now on what its `agent` and `agentFor` throw,
 * and the examples' problems reported for `config`.
 */
export function redactHarness(harness: BuiltHarness, config: HarnessConfig, redact: Redactor): void {
  configRedactors.set(config, redact)
  harness.warnings.forEach((warning, index) => { harness.warnings[index] = redact(warning) })
  const agent = Object.getOwnPropertyDescriptor(harness, 'agent')?.get
  const agentFor = harness.agentFor
  if (agent !== undefined) {
    Object.defineProperty(harness, 'agent', { get: () => redactingErrors(redact, () => agent.call(harness)), enumerable: true, configurable: true })
  }
  harness.agentFor = (session, options) => redactingErrors(redact, () => agentFor(session, options))
}

/** `problems` found in the examples of `config`, without the values `${env:…}` put into it. */
export function redactProblems(config: HarnessConfig, problems: ExampleProblem[]): ExampleProblem[] {
  const redact = configRedactors.get(config)
  if (redact === undefined) return problems
  return problems.map((each) => ({ ...each, detail: redact(each.detail), message: redact(each.message), label: each.label === undefined ? undefined : redact(each.label) }))
}
