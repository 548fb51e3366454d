/**
 * The tool registry. A definition is checked and its schemas compiled when it registers,
 * so a bad tool fails loudly at start-up, never at call time. `specs()` is derived once per
 * change and holds exactly what the model is shown: never `timeoutMs` or `idempotent`.
 */
import type { ToolDefinition } from './define-tool.js'
import type { ToolSpec } from './model.js'
import { SchemaCompiler, type Validator } from './schema.js'

/** A registered tool: its definition, compiled validators, and who registered it. */
export interface RegisteredTool {
  readonly definition: ToolDefinition
  readonly validateArgs: Validator
  readonly validateOutput?: Validator
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
  private readonly compiler = new SchemaCompiler()
  private specCache?: readonly ToolSpec[]

  /** Checks and compiles `definition`; returns the function that removes it again. */
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
    return this.specCache ??= Object.freeze([...this.tools.values()].map(({ definition: d }) =>
      Object.freeze({ name: d.name, description: d.description, parameters: structuredClone(d.parameters) })))
  }

  private prepare(definition: ToolDefinition, plugin: string): RegisteredTool {
    const d = definition as Partial<ToolDefinition> | undefined
    const label = `tool "${d?.name ?? '?'}" (registered by "${plugin}")`
    if (typeof d?.name !== 'string' || !NAME.test(d.name)) {
      throw new ToolDefinitionError(`${label}: name must be 1-64 letters, digits, "_" or "-"`)
    }
    if (typeof d.description !== 'string') throw new ToolDefinitionError(`${label}: description must be a string`)
    if (typeof d.execute !== 'function') throw new ToolDefinitionError(`${label}: execute must be a function`)
    const params = d.parameters as Record<string, unknown> | undefined
    if (typeof params !== 'object' || params === null || params.type !== 'object') {
      throw new ToolDefinitionError(`${label}: parameters must be a JSON Schema with type: 'object'`)
    }
    if (d.isConcurrencySafe !== undefined && typeof d.isConcurrencySafe !== 'function') {
      throw new ToolDefinitionError(`${label}: isConcurrencySafe must be a function of the arguments`)
    }
    if (d.timeoutMs !== undefined && !(typeof d.timeoutMs === 'number' && d.timeoutMs > 0)) {
      throw new ToolDefinitionError(`${label}: timeoutMs must be a positive number of milliseconds`)
    }
    const compile = (what: string, schema: object) => {
      try {
        return this.compiler.compile(schema)
      } catch (error) {
        throw new ToolDefinitionError(`${label}: ${what} is not a valid JSON Schema: ${(error as Error).message}`)
      }
    }
    const validateArgs = compile('parameters', params)
    const outputSchema = d.output?.schema
    const validateOutput = outputSchema === undefined ? undefined : compile('output.schema', outputSchema)
    return { definition: definition as ToolDefinition, validateArgs, validateOutput, plugin }
  }
}
