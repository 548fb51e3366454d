/**
 * The config schema, checked once at load: `file` must be a non-empty path and every `redact`
 * entry must compile as a regular expression, so a bad entry fails `ctx.plugin(...)` with a
 * message naming it (`$.redact[1] is not a valid regular expression: ...`).
 */
import { Schema } from 'cordis'
import { userPattern } from './redact.js'

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

const Shape = Schema.object({
  file: Schema.string().required().description('JSONL file to append one line per finished call to.'),
  redact: Schema.array(Schema.string()).default([]).description('Extra secret patterns (RegExp sources).'),
  maxStringLength: Schema.natural().default(4096).description('Cut longer argument strings in the log; 0 = never.'),
})

/** The plugin's config schema (cordis validates it at `ctx.plugin(...)`). */
export const Config: Schema<AuditInput, AuditConfig> = Schema.transform(Shape, (input) => {
  const config = input as unknown as AuditConfig
  if (config.file === '') throw new Schema.ValidationError('must be a non-empty file path', { path: ['file'] })
  config.redact.forEach((source, index) => {
    try {
      userPattern(source, index)
    } catch (error) {
      throw new Schema.ValidationError(
        `is not a valid regular expression: ${JSON.stringify(source)} (${(error as Error).message})`, { path: ['redact', index] })
    }
  })
  return config
}, true)
