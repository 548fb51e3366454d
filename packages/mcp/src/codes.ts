/**
 * The result codes this package adds to the kernel's catalogue. A failed MCP call carries
 * exactly one of these (or a kernel code such as `TOOL_TIMEOUT` or `ABORTED`) in
 * `error.info.code`, so policies match on a stable string instead of on message text.
 */

/** The MCP server ran the tool and answered `isError: true`; the message is the tool's own text. */
export const MCP_TOOL_ERROR = 'MCP_TOOL_ERROR'
/** The server is not reachable: it exited, closed the connection, or could not be (re)started. */
export const MCP_SERVER_UNAVAILABLE = 'MCP_SERVER_UNAVAILABLE'
/** The server refused the request at the protocol level (a JSON-RPC error such as invalid params). */
export const MCP_REQUEST_FAILED = 'MCP_REQUEST_FAILED'

/** Every code `@rein/mcp` produces itself. */
export const McpCodes = {
  MCP_TOOL_ERROR,
  MCP_SERVER_UNAVAILABLE,
  MCP_REQUEST_FAILED,
} as const

export type McpCode = typeof McpCodes[keyof typeof McpCodes]
