/**
 * Tools whose schemas are written with a Standard Schema validator (zod 4, valibot, arktype).
 * The library validates (ajv never sees such a value, so nothing is validated twice); its
 * issues become lines shaped like ajv's (`/limit: <message>`); the model is shown the JSON
 * Schema the library converts itself to through Standard JSON Schema (`~standard.jsonSchema`).
 * The interfaces below are the few members rein reads, after standardschema.dev.
 */
import { capLines } from './json-schema.js'
import { messageOf, readSafely } from './read.js'

/** A value that validates itself: the Standard Schema v1 interface, as far as rein uses it. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: Input, readonly output: Output }
    /** Standard JSON Schema: how the library converts the schema to JSON Schema. */
    readonly jsonSchema?: {
      readonly input: (options: { target: string }) => Record<string, unknown>
    }
  }
}

/** What a Standard Schema's `validate` answers. */
export type StandardResult<Output> =
  | { readonly value: Output, readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string, readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }> }

/** The type a Standard Schema's validation outputs (what `execute` receives). */
export type StandardOutput<S> = S extends StandardSchema<unknown, infer O> ? O : never

/** The outcome of checking a value: the value to go on with, or model-readable lines. */
export type Checked = { ok: true, value: unknown } | { ok: false, lines: string[] }

/** Whether `schema` is a Standard Schema (has a `~standard` object with a `validate` function). */
export function isStandardSchema(schema: unknown): schema is StandardSchema {
  const props = (schema as { '~standard'?: { validate?: unknown } } | null)?.['~standard']
  return typeof props === 'object' && props !== null && typeof props.validate === 'function'
}

/**
 * The JSON Schema the model is shown for a Standard Schema: draft 2020-12, or draft-07 when
 * the library cannot write 2020-12; `$schema` left out. Throws a message saying what to do.
 */
export function jsonSchemaOf(schema: StandardSchema): Record<string, unknown> {
  const props = schema['~standard']
  const convert = props.jsonSchema?.input
  if (typeof convert !== 'function') {
    throw new Error(`the ${props.vendor} schema cannot describe itself as JSON Schema (it does not implement Standard JSON Schema, ` +
      '"~standard.jsonSchema"): use zod 4.2 or later, arktype 2.1.28 or later, or wrap a valibot schema in toStandardJsonSchema() from @valibot/to-json-schema')
  }
  let converted: Record<string, unknown>
  try {
    converted = convert({ target: 'draft-2020-12' })
  } catch {
    converted = convert({ target: 'draft-07' })
  }
  const { $schema: _dialect, ...shown } = converted
  return shown
}

/** Checks a value with a Standard Schema; the value to go on with is the schema's output. */
export function checkStandard(schema: StandardSchema, value: unknown): Checked | Promise<Checked> {
  let answer: unknown
  try {
    answer = schema['~standard'].validate(value)
  } catch (error) {
    return { ok: false, lines: [`the schema's validation failed: ${messageOf(error)}`] }
  }
  if (typeof readSafely(answer, 'then') === 'function') {
    return Promise.resolve(answer).then(checked,
      (error) => ({ ok: false, lines: [`the schema's validation failed: ${messageOf(error)}`] }))
  }
  return checked(answer)
}

/** A validation answer read once; anything that is neither a value nor issues is a failure. */
function checked(answer: unknown): Checked {
  const issues = readSafely(answer, 'issues')
  if (issues === undefined) {
    if (typeof answer !== 'object' || answer === null || !('value' in answer)) return { ok: false, lines: ['the schema\'s validation answered neither a value nor issues'] }
    return { ok: true, value: readSafely(answer, 'value') }
  }
  const result = { issues } as Extract<StandardResult<unknown>, { issues: unknown }>
  if (!Array.isArray(result.issues)) return { ok: false, lines: ['the schema\'s validation answered issues that are not a list'] }
  const lines = result.issues.map((issue) => {
    const message = String(readSafely(issue, 'message') ?? 'is invalid')
    const path = readSafely(issue, 'path')
    const parts = Array.isArray(path) ? path.map((part) => String(typeof part === 'object' && part !== null ? readSafely(part, 'key') : part)) : []
    return parts.length ? `/${parts.join('/')}: ${message}` : message
  })
  return { ok: false, lines: capLines(lines.length ? lines : ['is invalid']) }
}
