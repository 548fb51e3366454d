/**
 * `@rein/schema`: a tool's schemas as checks that answer model-readable lines. JSON Schema is
 * compiled by ajv (draft-07, or 2020-12 by `$schema`), loaded at the first compile; a Standard
 * Schema (zod 4, valibot, arktype) validates itself and describes itself as JSON Schema.
 * `@rein/kernel` checks every tool with it and re-exports the types a tool author names.
 *
 *   const compiler = new SchemaCompiler()
 *   const check = checkOf({ type: 'object', required: ['path'] }, compiler)
 *   check({})  // { ok: false, lines: ['missing required property "path"'] }
 */
export { SchemaCompiler, compileAtOnce, renderErrors, capLines, type SchemaCompile, type Validator } from './json-schema.js'
export {
  isStandardSchema, jsonSchemaOf, checkStandard, type StandardSchema, type StandardResult, type StandardOutput, type Checked,
} from './standard-schema.js'
export { checkOf, type Check } from './check.js'
export { messageOf, readSafely } from './read.js'
