/**
 * What a tool is. A tool author returns a value that fits `output.schema` and passes
 * `exec.signal` to its I/O; everything else (timeouts, retries, permissions, caching,
 * output size) is deployment policy that lives in plugins.
 */
import type { StandardSchema } from '@rein/schema'
import type { ContentBlock, Json, ToolExec } from '@rein/types'

/** A JSON Schema object (ajv draft-07 by default, 2020-12 when `$schema` says so). */
export type JsonSchema = Record<string, unknown>

export interface ToolDefinition<A = any, V = any> {
  /** What the model calls it: letters, digits, `_` and `-`, at most 64 characters. */
  name: string
  description: string
  /**
   * The arguments' schema; must describe an object. A JSON Schema (the model is shown exactly
   * this, ajv validates), or a Standard Schema such as a zod 4, valibot or arktype object (it
   * validates, `execute` gets its typed output, and the model is shown its JSON Schema).
   */
  parameters: JsonSchema | StandardSchema<any, A>
  output?: {
    /** What every returned value must fit: a JSON Schema, or a Standard Schema (whose output becomes the value). */
    schema?: JsonSchema | StandardSchema<any, V>
    /** Turns a value into what the model sees. Default: a string as is, anything else as JSON. */
    render?(args: A, value: V): ContentBlock[]
  }
  /** Sync, pure, unary. Anything but `true` (a throw, a non-boolean) means exclusive. */
  isConcurrencySafe?(args: A): boolean
  /** Deployment metadata for the timeout plugin; never shown to the model. */
  timeoutMs?: number
  /** Retry and cache may repeat or reuse this call. Never shown to the model. */
  idempotent?: boolean
  /** A successful call of this tool ends the agent loop after its batch commits. */
  concludesTurn?: boolean
  /** The body. Runs inside `tools/execute`; may run in parallel with other bodies. Its value must be lossless JSON. */
  execute(args: A, exec: ToolExec): Promise<V> | V
  /**
   * Says after a crash whether a call's effect happened (DESIGN.md §7.3). On resume the agent
   * asks it for each call logged as started without a result, before anything else, within
   * `timeoutMs` (else 30 s): `ran: true` commits `value`, `ran: false` runs the call again under
   * the same key. Anything else (a throw, another shape, no answer in time) leaves it unknown.
   */
  reconcile?(input: ReconcileInput): Promise<ReconcileAnswer<V>> | ReconcileAnswer<V>
}

/** What `reconcile` is given: the call's JSON arguments as logged (before the schema), its key, and its deadline. */
export interface ReconcileInput {
  arguments: Readonly<Record<string, unknown>>
  idempotencyKey: string
  signal: AbortSignal
}

/** What `reconcile` answers: the effect happened (and what the call returned), or it did not. */
export type ReconcileAnswer<V = Json> = { ran: true, value: V } | { ran: false }

/** Declares a tool. Checked when it is registered (`ctx.tools.register`), not here. */
export function defineTool<A = any, V = any>(definition: ToolDefinition<A, V>): ToolDefinition<A, V> {
  return definition
}

/** The default rendering: a string as is, anything else as compact JSON. */
export function renderValue(value: Json): ContentBlock[] {
  return [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }]
}
