/**
 * What `tools/list` answers: the harness's tools as MCP tools, in the kernel's order, without
 * those the policy denies whatever their arguments (asked of the `ctx.toolPolicy` service a
 * policy plugin may provide, read by name so this package imports no plugin). A tool whose
 * parameters are not an object schema cannot be called with MCP's object `arguments`, and
 * is left out with a warning.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ToolDefinition, ToolSpec } from '@rein/kernel'

/** What a policy may say about a tool before any call (permission-guard's `ctx.toolPolicy`). */
export interface ToolPolicyLike {
  unconditionalDeny(name: string): string | undefined
}

/** The part of `ctx.tools` the listing reads. */
export interface ToolCatalog {
  specs(): readonly ToolSpec[]
  get(name: string): ToolDefinition | undefined
}

/** The MCP tools to list. `warn` hears, once per call, about each tool left out for its schema. */
export function listTools(catalog: ToolCatalog, policy: ToolPolicyLike | undefined, warn: (message: string) => void): Tool[] {
  const tools: Tool[] = []
  for (const spec of catalog.specs()) {
    if (denied(policy, spec.name)) continue
    const inputSchema = objectSchema(spec.parameters)
    if (!inputSchema) {
      warn(`tool "${spec.name}" is not offered over MCP: its parameters schema is not of type "object", and MCP arguments are an object`)
      continue
    }
    const output = catalog.get(spec.name)?.output?.schema
    const outputSchema = output !== undefined && isRecord(output) && output.type === 'object' ? output : undefined
    tools.push({
      name: spec.name,
      description: spec.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
    })
  }
  return tools
}

/** Whether the policy denies every call of `name`; a policy that throws is not trusted to hide anything. */
function denied(policy: ToolPolicyLike | undefined, name: string): boolean {
  if (!policy || typeof policy.unconditionalDeny !== 'function') return false
  try {
    return typeof policy.unconditionalDeny(name) === 'string'
  } catch {
    return false
  }
}

/** The schema as an MCP input schema: `type: "object"` (added when the schema says no type), else undefined. */
function objectSchema(parameters: Record<string, unknown>): Record<string, unknown> | undefined {
  if (parameters.type === 'object') return parameters
  if (parameters.type === undefined) return { type: 'object', ...parameters }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
