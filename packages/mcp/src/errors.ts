/**
 * How a failed MCP request becomes a rein failure. The tool body throws a `McpCallError`,
 * whose `code` the kernel copies into `error.info.code`. A rejection decides two things: the
 * code and message the model sees, and whether the connection is broken (then the next call
 * starts the server again). A server's own JSON-RPC error never breaks the connection.
 */
import { Messages, TOOL_TIMEOUT } from '@rein/kernel'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { MCP_REQUEST_FAILED, MCP_SERVER_UNAVAILABLE } from './codes.js'

/** The SDK's per-request timeout when a server sets no `timeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 60_000

/** A failure of one MCP tool call, with the code the kernel puts in `error.info.code`. */
export class McpCallError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
  }
}

/** A classified rejection: what to throw, and whether the connection must be dropped. */
export interface Classified {
  error: McpCallError
  broken: boolean
}

/** The message of a server that went away; says what happens next. */
export function unavailable(server: string, why: string): McpCallError {
  return new McpCallError(MCP_SERVER_UNAVAILABLE,
    `MCP server "${server}" is unavailable (${why}); it will be restarted on the next call`)
}

/**
 * Classifies a rejection of `callTool` that was not caused by the call's own signal.
 * `timeoutMs` is the request timeout in force, for the `TOOL_TIMEOUT` message.
 */
export function classify(error: unknown, server: string, tool: string, timeoutMs: number | undefined): Classified {
  if (error instanceof McpError) {
    switch (error.code) {
      case ErrorCode.ConnectionClosed:
        return { error: unavailable(server, `the connection closed while "${tool}" was running`), broken: true }
      case ErrorCode.RequestTimeout:
        return { error: new McpCallError(TOOL_TIMEOUT, Messages.timedOut(timeoutMs ?? DEFAULT_TIMEOUT_MS)), broken: false }
      default:
        return {
          error: new McpCallError(MCP_REQUEST_FAILED, `MCP server "${server}" refused the call to "${tool}": ${error.message}`),
          broken: false,
        }
    }
  }
  if ((error as Error | undefined)?.name === 'ZodError') {
    return {
      error: new McpCallError(MCP_REQUEST_FAILED, `MCP server "${server}" answered "${tool}" with a malformed result`),
      broken: false,
    }
  }
  return { error: unavailable(server, describe(error)), broken: true }
}

/** A short description of a transport failure (with the HTTP status, and a hint for 401/403). */
export function describe(error: unknown): string {
  if (error instanceof StreamableHTTPError && error.code !== undefined) {
    const hint = error.code === 401 || error.code === 403 ? ' (check the credentials in this server\'s headers)' : ''
    return `HTTP ${error.code}${hint}: ${error.message}`
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    const detail = cause instanceof Error && cause.message ? `: ${cause.message}` : ''
    return `${error.message || error.name}${detail}`
  }
  return String(error)
}
