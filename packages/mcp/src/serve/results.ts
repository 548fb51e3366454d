/**
 * One rein result as an MCP `tools/call` result. The content is what rein shows a model (text
 * and image blocks as they are, the additional contexts after them); a failure is `isError:
 * true` with its `Error: ...` text first; a success whose value is a JSON object also carries
 * it as `structuredContent` (a tool with an object output schema lists that schema).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { isContent, type ToolExecutionResult } from '@rein/kernel'

/** The MCP result of `result`. Pure. */
export function callResult(result: ToolExecutionResult): CallToolResult {
  const content = [...result.content, ...(result.additionalContexts ?? [])]
  if (result.isError) return { isError: true, content }
  const value = result.value
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value) && !isContent(value)
  return { content, ...(structured ? { structuredContent: value as Record<string, unknown> } : {}) }
}

/** A refusal the server itself gives (no pipeline ran), shaped like any failed result. */
export function refusal(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `Error: ${message}` }] }
}
