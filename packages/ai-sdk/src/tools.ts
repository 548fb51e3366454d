/**
 * The harness's tools as an AI SDK `ToolSet`. Every tool the harness offers is in the set, an
 * unconditionally denied one included: hiding it would make the AI SDK answer a call to it with
 * its own `NoSuchToolError` instead of rein's refusal. The AI SDK does not validate the
 * arguments itself (the schema is handed over without a validator); the kernel does, so a bad
 * call gets rein's `INVALID_ARGS` lines like any other refusal. `execute` never throws: a
 * refused or failed call returns its `Error: ...` text as the tool's output, so the model
 * reads it and the step goes on.
 */
import { jsonSchema, tool, type ToolExecutionOptions, type ToolSet } from 'ai'
import type { ExecuteOptions, ToolCall, ToolExecutionResult, ToolSpec, SessionRef } from '@rein/kernel'
import { modelText } from './text.js'

/** The part of `ctx.tools` this package uses. */
export interface ToolsLike {
  specs(): readonly ToolSpec[]
  execute(call: ToolCall, options?: ExecuteOptions): Promise<ToolExecutionResult>
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
 * abort signal as `exec.signal`, and returns the text rein would show the model.
 */
export function reinTools(harness: ReinToolsHarness, options: ReinToolsOptions = {}): ToolSet {
  const tools = toolsOf(harness)
  const only = options.only === undefined ? undefined : new Set(options.only)
  const set: ToolSet = {}
  for (const spec of tools.specs()) {
    if (only && !only.has(spec.name)) continue
    set[spec.name] = tool<unknown, string>({
      description: spec.description,
      inputSchema: jsonSchema(spec.parameters),
      execute: (input: unknown, { toolCallId, abortSignal }: ToolExecutionOptions) =>
        tools.execute({ id: toolCallId, name: spec.name, arguments: input }, {
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...(options.session ? { session: options.session } : {}),
        }).then(modelText),
    })
  }
  return set
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
