/**
 * The config schema, checked once at load (by cordis at `ctx.plugin(...)`, and by the loader):
 * `file` must be a non-empty path, also when the whole config is missing, and every `redact`
 * entry must compile as a regular expression that cannot match the empty string. A bad config
 * fails the start with a message naming the key and the fix, never a crash at the first call.
 */
import { Schema } from 'cordis'
import { patternProblem } from '@rein/redact'

export interface AuditConfig {
  /** The JSONL file lines are appended to; a relative path is resolved from `process.cwd()`. */
  file: string
  /** Extra secret patterns (RegExp sources, matched globally) redacted after the built-in ones. */
  redact: string[]
  /** Longer argument strings are cut to this many characters, with a marker; 0 keeps them whole. */
  maxStringLength: number
}

/** What a user may write. */
export interface AuditInput {
  file: string
  redact?: string[]
  maxStringLength?: number
}

/** How to fix a missing or empty `file`, shown in its error. */
const FILE_HINT = 'the file audit appends one JSON line per call to, e.g. file: ./audit.jsonl'

// `file` is checked below rather than marked required, so that its error can say what to set.
const Shape = Schema.object({
  file: Schema.string().description('JSONL file to append one line per finished call to (required).'),
  redact: Schema.array(Schema.string()).default([]).description('Extra secret patterns (RegExp sources).'),
  maxStringLength: Schema.natural().default(4096).description('Cut longer argument strings in the log; 0 = never.'),
})

function check(config: AuditConfig): AuditConfig {
  if (config.file === undefined) throw new Schema.ValidationError(`is required: ${FILE_HINT}`, { path: ['file'] })
  if (config.file.trim() === '') throw new Schema.ValidationError(`must be a non-empty file path: ${FILE_HINT}`, { path: ['file'] })
  config.redact.forEach((source, index) => {
    const problem = patternProblem(source)
    if (problem !== undefined) throw new Schema.ValidationError(problem, { path: ['redact', index] })
  })
  return config
}

/**
 * The plugin's config schema. A missing config resolves to `{}` first, so it is refused for its
 * missing `file` like any other config without one.
 */
export const Config: Schema<AuditInput | undefined, AuditConfig> =
  Schema.transform(Shape, (input) => check(input as unknown as AuditConfig), true).default({} as AuditConfig)
