/**
 * A tool's schema as one check, whichever kind it is: a Standard Schema validates itself (its
 * output is the value to go on with); a JSON Schema is compiled by the caller's compiler, and
 * answers the same `Checked` shape. Made once, when a tool registers; run for every value.
 */
import { SchemaCompiler } from './json-schema.js'
import { checkStandard, isStandardSchema, type Checked } from './standard-schema.js'

/** Checks a value against a schema: a Standard Schema's answer carries its output `value`, which the tool then receives. */
export type Check = (value: unknown) => Checked | Promise<Checked>

const VALID: Checked = Object.freeze({ ok: true }) as Checked

/**
 * The check of `schema`. A JSON Schema is compiled by `compiler` (now, or as its
 * `SchemaCompile` says); throws ajv's own message when it is not a valid JSON Schema.
 */
export function checkOf(schema: unknown, compiler: SchemaCompiler): Check {
  if (isStandardSchema(schema)) return (value) => checkStandard(schema, value)
  const validate = compiler.prepare(schema as object)
  return (value) => {
    const lines = validate(value)
    return lines ? { ok: false, lines } : VALID
  }
}
