/**
 * One MCP tool as a rein tool. The body calls the server through the live connection
 * (starting it again if it died), passes the call's signal so an abort cancels the MCP
 * request, and forwards progress notifications to `exec.progress` (the timeout plugin's
 * heartbeat). Progress resets the request timeout, but never past `maxTotalMs`. Its value is
 * the result's `structuredContent` when present, which the kernel validates against the
 * tool's `outputSchema`; otherwise the result's content blocks. Both schemas lose their
 * regular expressions first (see schema.ts), and error texts lose the server's secrets.
 */
import { CodedError, defineTool, isContent, renderValue, type Json, type ToolDefinition, type ToolExec } from '@rein/kernel'
import type { Progress, Tool } from '@modelcontextprotocol/sdk/types.js'
import { MCP_TOOL_ERROR } from './codes.js'
import type { ServerConnection } from './connection.js'
import { errorText, toContent } from './content.js'
import { classify, totalCeiling } from './errors.js'
import { withoutPatterns } from './schema.js'

/** The rein definition of MCP tool `tool`, registered as `name`. */
export function mcpTool(connection: ServerConnection, tool: Tool, name: string): ToolDefinition {
  const readOnly = tool.annotations?.readOnlyHint === true
  return defineTool({
    name,
    description: tool.description ?? tool.title ?? `Tool "${tool.name}" of the MCP server "${connection.server}".`,
    parameters: withoutPatterns(withoutId(tool.inputSchema)),
    output: {
      ...(tool.outputSchema ? { schema: withoutPatterns(withoutId(tool.outputSchema)) } : {}),
      // A value is either content blocks (shown as they are) or structured content (as JSON).
      render: (_args, value: Json) => isContent(value) ? value : renderValue(value),
    },
    ...(readOnly ? { isConcurrencySafe: () => true, idempotent: true } : {}),
    ...(connection.timeoutMs ? { timeoutMs: connection.timeoutMs } : {}),
    execute: (args: Record<string, unknown>, exec) => callTool(connection, tool.name, args, exec),
  })
}

/** Runs `tool` on the server for one call. Throws `CodedError`s, or the signal's reason on abort. */
async function callTool(connection: ServerConnection, tool: string, args: Record<string, unknown>,
  exec: ToolExec): Promise<Json> {
  const signal = exec.signal
  const live = await connection.live(signal)
  if (signal.aborted) throw signal.reason
  // A private controller, so that the SDK's listener never outlives this call on a long-lived signal.
  const link = new AbortController()
  const onAbort = () => link.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  let result: Awaited<ReturnType<typeof live.client.callTool>>
  try {
    // The server can make the call's effect happen once, however often rein runs it (DESIGN.md §7.3).
    result = await live.client.callTool({ name: tool, arguments: args, _meta: { 'rein/idempotencyKey': exec.idempotencyKey } }, undefined, {
      signal: link.signal,
      timeout: connection.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: connection.maxTotalMs,
      onprogress: (progress) => exec.progress(progressInfo(progress)),
    })
  } catch (error) {
    if (signal.aborted) throw signal.reason
    // The SDK gives up on a call past its ceiling without telling the server: cancel it.
    if (totalCeiling(error) !== undefined) link.abort(error)
    const classified = classify(error, connection.server, tool, connection.timeoutMs, connection.redact)
    if (classified.broken) connection.drop(live)
    throw classified.error
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
  const content = Array.isArray(result.content) ? result.content : undefined
  if (result.isError === true) throw new CodedError(connection.redact(errorText(content, tool)), MCP_TOOL_ERROR)
  if (result.structuredContent !== undefined) return result.structuredContent as Json
  return toContent(content)
}

/**
 * The schema without a top-level `$id`: the kernel's ajv keeps every schema it compiled, so a
 * second registration of the same `$id` (a changed tool, or two servers) would be refused.
 */
function withoutId<S extends Record<string, unknown>>(schema: S): S {
  if (!('$id' in schema)) return schema
  const { $id: _id, ...rest } = schema
  return rest as S
}

/** An MCP progress notification as rein progress info. */
function progressInfo(progress: Progress) {
  return {
    progress: progress.progress,
    ...(progress.total === undefined ? {} : { total: progress.total }),
    ...(progress.message === undefined ? {} : { message: progress.message }),
  }
}
