/**
 * The harness's tools as an AI SDK `ToolSet`. Every tool the harness offers is in the set, an
 * unconditionally denied one included: hiding it would make the AI SDK answer a call to it with
 * its own `NoSuchToolError` instead of rein's refusal. The AI SDK does not validate the
 * arguments itself (the schema is handed over without a validator); the kernel does, so a bad
 * call gets rein's `INVALID_ARGS` lines like any other refusal. A refused or failed call throws
 * a `ReinToolError` whose message is rein's `Error: ...` text: the AI SDK reports it to the app
 * as a `tool-error` and sends the text to the model as the tool's `error-text` output, and the
 * step goes on. The AI SDK runs the calls of a step concurrently; the set's gate admits them by
 * `executionMode`, as rein's agent does, so a write never races a read.
 */
import { jsonSchema, tool, type ToolExecutionOptions, type ToolSet } from 'ai'
import type { ExecuteOptions, ExecutionMode, ToolCall, ToolExecutionResult, ToolSpec, SessionRef } from '@rein/kernel'
import { ReinToolError } from './errors.js'
import { ModeGate } from './gate.js'
import { modelText } from './text.js'

/** The part of `ctx.tools` this package uses. */
export interface ToolsLike {
  specs(): readonly ToolSpec[]
  execute(call: ToolCall, options?: ExecuteOptions): Promise<ToolExecutionResult>
  /** Whether a call may share (`'parallel'`) or must run alone; without it every call runs alone. */
  executionMode?(call: ToolCall): ExecutionMode
}

/**
 * What `reinTools` accepts: what `createHarness` / `loadHarness` return (`{ ctx, agent,
 * dispose }`; only `ctx` is read), or a started cordis Context with the kernel (`ctx.tools`).
 */
export type ReinToolsHarness = { ctx: { tools: ToolsLike } } | { tools: ToolsLike }

export interface ReinToolsOptions {
  /**
   * The rein session these calls belong to (`exec.session`): per-session plugins (approval
   * answers, budgets) keep their counts there. Without one they keep none.
   */
  session?: SessionRef
  /** Offer only these tools (by rein name); every tool when absent. */
  only?: readonly string[]
}

/**
 * A `ToolSet` with one AI SDK tool per tool the harness offers now (a tool registered later,
 * e.g. by an MCP server that changed its list, is in the next set). Each `execute` runs the
 * call through the harness's pipeline with the AI SDK's tool call id as the call id and its
 * abort signal as `exec.signal`, and returns the text rein would show the model, or throws a
 * `ReinToolError` for a refused or failed call. The calls of one set pass its gate in the
 * order `execute` is called (the model's order within a step): an `'exclusive'` call runs
 * alone, `'parallel'` calls together. The set has no prototype, so only the harness's tools are
 * in it (a model calling `constructor` gets the AI SDK's `NoSuchToolError`).
 */
export function reinTools(harness: ReinToolsHarness, options: ReinToolsOptions = {}): ToolSet {
  const tools = toolsOf(harness)
  const only = options.only === undefined ? undefined : new Set(options.only)
  const gate = new ModeGate()
  const set = Object.create(null) as ToolSet
  for (const spec of tools.specs()) {
    if (only && !only.has(spec.name)) continue
    const execute = async (input: unknown, { toolCallId, abortSignal }: ToolExecutionOptions): Promise<string> => {
      const call: ToolCall = { id: toolCallId, name: spec.name, arguments: input }
      // Taken before the first await: admission follows the order of the execute calls.
      const release = await gate.enter(modeOf(tools, call), abortSignal)
      let result: ToolExecutionResult
      try {
        // A call aborted while it waited holds no place: the kernel settles it without its body.
        result = await tools.execute(call, {
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...(options.session ? { session: options.session } : {}),
        })
      } finally {
        release?.()
      }
      if (result.isError) throw new ReinToolError(result)
      return modelText(result)
    }
    Object.defineProperty(set, spec.name, {
      value: tool<unknown, string>({ description: spec.description, inputSchema: jsonSchema(spec.parameters), execute }),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return set
}

/** The kernel's mode for `call` (invalid arguments, an unknown tool or a throw: exclusive, failing closed). */
function modeOf(tools: ToolsLike, call: ToolCall): ExecutionMode {
  try {
    return tools.executionMode?.(call) === 'parallel' ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}

/** `ctx.tools` of a harness or a context; a clear error for anything else. */
function toolsOf(harness: ReinToolsHarness): ToolsLike {
  const direct = (harness as { tools?: ToolsLike }).tools
  const tools = direct ?? (harness as { ctx?: { tools?: ToolsLike } }).ctx?.tools
  if (!tools || typeof tools.specs !== 'function' || typeof tools.execute !== 'function') {
    throw new TypeError('reinTools(harness): expected what createHarness/loadHarness return ({ ctx }) or a cordis Context with @rein/kernel applied (ctx.tools)')
  }
  return tools
}
