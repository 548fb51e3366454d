/**
 * The tool registry. A definition and its schemas are checked when it registers, so a bad
 * tool fails loudly at start-up, never at call time; a JSON Schema is compiled by ajv once,
 * at `register` (or as the kernel config `compileSchema` says). `specs()` is derived once per
 * change and holds exactly what the model is shown: never `timeoutMs` or `idempotent`.
 */
import type { ToolDefinition } from './define-tool.js'
import type { ToolSpec } from '@rein/types'
import { checkOf, isStandardSchema, jsonSchemaOf, SchemaCompiler, type Check, type SchemaCompile } from '@rein/schema'

/** A registered tool: its definition, the JSON Schema the model is shown, its checks, and who registered it. */
export interface RegisteredTool {
  readonly definition: ToolDefinition
  /** The JSON Schema of the parameters, as the model is shown it. */
  readonly parameters: Record<string, unknown>
  readonly checkArgs: Check
  readonly checkOutput?: Check
  readonly plugin: string
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/

/** Thrown at `register` when a definition is unusable; says which tool and how to fix it. */
export class ToolDefinitionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ToolDefinitionError'
  }
}

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>()
  private readonly compiler: SchemaCompiler

  constructor(compileSchema?: SchemaCompile) {
    this.compiler = new SchemaCompiler(compileSchema)
  }
  private specCache?: readonly ToolSpec[]

  /** Checks `definition` and prepares its schemas' checks; returns the function that removes it again. */
  add(definition: ToolDefinition, plugin: string): () => void {
    const tool = this.prepare(definition, plugin)
    const existing = this.tools.get(tool.definition.name)
    if (existing) {
      throw new ToolDefinitionError(
        `tool "${definition.name}" is already registered by plugin "${existing.plugin}"; tool names must be unique`)
    }
    this.tools.set(definition.name, tool)
    this.specCache = undefined
    return () => {
      if (this.tools.get(definition.name) !== tool) return
      this.tools.delete(definition.name)
      this.specCache = undefined
    }
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name)
  }

  names(): string[] {
    return [...this.tools.keys()]
  }

  /** `[{ name, description, parameters }]` for every tool, in registration order (frozen). */
  specs(): readonly ToolSpec[] {
    return this.specCache ??= Object.freeze([...this.tools.values()].map(({ definition: d, parameters }) =>
      Object.freeze({ name: d.name, description: d.description, parameters: structuredClone(parameters) })))
  }

  private prepare(definition: ToolDefinition, plugin: string): RegisteredTool {
    const d = definition as Partial<ToolDefinition> | undefined
    const label = `tool "${d?.name ?? '?'}" (registered by "${plugin}")`
    if (typeof d?.name !== 'string' || !NAME.test(d.name)) {
      throw new ToolDefinitionError(`${label}: name must be 1-64 letters, digits, "_" or "-"`)
    }
    if (typeof d.description !== 'string') throw new ToolDefinitionError(`${label}: description must be a string`)
    if (typeof d.execute !== 'function') throw new ToolDefinitionError(`${label}: execute must be a function`)
    if (d.isConcurrencySafe !== undefined && typeof d.isConcurrencySafe !== 'function') {
      throw new ToolDefinitionError(`${label}: isConcurrencySafe must be a function of the arguments`)
    }
    if (d.reconcile !== undefined && typeof d.reconcile !== 'function') {
      throw new ToolDefinitionError(`${label}: reconcile must be a function ({ arguments, idempotencyKey, signal }) => { ran: true, value } | { ran: false }`)
    }
    if (d.timeoutMs !== undefined && !(typeof d.timeoutMs === 'number' && d.timeoutMs > 0)) {
      throw new ToolDefinitionError(`${label}: timeoutMs must be a positive number of milliseconds`)
    }
    const params = this.parametersOf(d.parameters, label)
    const checkArgs = this.checkOf('parameters', d.parameters, label)
    const outputSchema = d.output?.schema
    const checkOutput = outputSchema === undefined ? undefined : this.checkOf('output.schema', outputSchema, label)
    return { definition: definition as ToolDefinition, parameters: params, checkArgs, checkOutput, plugin }
  }

  /** The JSON Schema of the parameters (converted from a Standard Schema); it must describe an object. */
  private parametersOf(parameters: unknown, label: string): Record<string, unknown> {
    let json: unknown = parameters
    if (isStandardSchema(parameters)) {
      try {
        json = jsonSchemaOf(parameters)
      } catch (error) {
        throw new ToolDefinitionError(`${label}: parameters: ${(error as Error).message}`)
      }
    }
    const params = json as Record<string, unknown> | undefined
    if (typeof params !== 'object' || params === null || params.type !== 'object') {
      throw new ToolDefinitionError(`${label}: parameters must be a JSON Schema with type: 'object' (or a Standard Schema of an object)`)
    }
    return structuredClone(params)
  }

  /** The check of one schema: the Standard Schema's own validation, or ajv's validator. */
  private checkOf(what: string, schema: unknown, label: string): Check {
    try {
      return checkOf(schema, this.compiler)
    } catch (error) {
      throw new ToolDefinitionError(`${label}: ${what} is not a valid JSON Schema: ${(error as Error).message}`)
    }
  }
}
