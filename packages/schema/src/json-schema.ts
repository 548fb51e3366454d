/**
 * JSON Schema validation with ajv. A tool's schema is compiled once, when it registers (or as
 * the kernel config `compileSchema` says); the validator is kept with the tool (ajv's own cache
 * is keyed by object identity and never evicts). Errors render as a few short lines a model
 * can act on.
 */
import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'

type FormatsPlugin = (ajv: Ajv) => Ajv
type AjvClass = new (options: object) => Ajv

/**
 * ajv and ajv-formats, loaded when the first JSON Schema is compiled: importing them costs
 * about as much as starting node, and a process that compiles no schema (`rein --help`, a
 * harness of Standard Schema tools) never pays it. Both are CommonJS, so `require` is synchronous.
 */
const load = (() => {
  let loaded: { Ajv: AjvClass, Ajv2020: AjvClass, addFormats: FormatsPlugin } | undefined
  return () => loaded ??= (() => {
    const require = createRequire(import.meta.url)
    const formats = require('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin }
    return {
      Ajv: (require('ajv') as { Ajv: AjvClass }).Ajv,
      Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: AjvClass }).Ajv2020,
      addFormats: formats.default ?? formats,
    }
  })()
})()

/** At most this many error lines are shown to the model. */
const MAX_LINES = 5

/** A validator that answers with model-readable lines instead of throwing. */
export type Validator = (value: unknown) => string[] | undefined

/** At most `MAX_LINES` distinct lines, the last saying how many more there were. */
export function capLines(lines: readonly string[]): string[] {
  const unique = [...new Set(lines)]
  if (unique.length <= MAX_LINES) return unique
  return [...unique.slice(0, MAX_LINES), `...and ${unique.length - MAX_LINES} more`]
}

/**
 * How a tool's JSON Schema becomes its validator at `register` (kernel config `compileSchema`).
 * `schema` is the kernel's own copy; `compile` compiles it with ajv now and throws ajv's own
 * message for an invalid schema. The default calls it at once; a process that only inspects a
 * harness may defer it (the loader's `compileOnFirstUse`), but must still throw for a schema
 * that would not compile.
 */
export type SchemaCompile = (schema: object, compile: (schema: object) => Validator) => Validator

/** The default `compileSchema`: compiled at `register`, so no call pays for it. */
export const compileAtOnce: SchemaCompile = (schema, compile) => compile(schema)

/** One compiler per kernel instance: two harnesses in a process never share ajv state. */
export class SchemaCompiler {
  private draft07?: Ajv
  private draft2020?: Ajv

  constructor(private readonly how: SchemaCompile = compileAtOnce) {}

  /** A validator of a copy of `schema` (later changes to the caller's object do not reach it). */
  prepare(schema: object): Validator {
    return this.how(structuredClone(schema), (own) => this.compile(own))
  }

  /** Compiles `schema` now; throws ajv's own message when the schema itself is invalid. */
  compile(schema: object): Validator {
    const ajv = this.pick(schema)
    const validate: ValidateFunction = ajv.compile(schema)
    // The compiled function keeps what it needs; leaving the schema in ajv's cache would grow
    // it on every re-registration and refuse a schema whose `$id` was registered before.
    ajv.removeSchema(schema)
    return (value) => validate(value) ? undefined : renderErrors(validate.errors ?? [])
  }

  private pick(schema: object): Ajv {
    const dialect = (schema as { $schema?: unknown }).$schema
    const { Ajv, Ajv2020, addFormats } = load()
    if (typeof dialect === 'string' && dialect.includes('2020-12')) {
      return this.draft2020 ??= addFormats(new Ajv2020({ strict: false, allErrors: true }))
    }
    return this.draft07 ??= addFormats(new Ajv({ strict: false, allErrors: true }))
  }
}

/** Renders ajv errors as `/limit: must be integer` and `missing required property "path"`. */
export function renderErrors(errors: readonly ErrorObject[]): string[] {
  const lines = errors.map((error) => {
    const at = error.instancePath
    const prefix = at ? `${at}: ` : ''
    switch (error.keyword) {
      case 'required':
        return `${prefix}missing required property "${(error.params as { missingProperty: string }).missingProperty}"`
      case 'additionalProperties':
        return `${prefix}unknown property "${(error.params as { additionalProperty: string }).additionalProperty}"`
      case 'enum':
        return `${prefix || '(root): '}must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`
      default:
        return `${prefix || '(root): '}${error.message ?? 'is invalid'}`
    }
  })
  return capLines(lines)
}
