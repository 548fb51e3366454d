/**
 * Serving a harness's tools to MCP clients (`rein mcp serve`): over stdio (`serveStdio`) or
 * Streamable HTTP (`serveHttp`), each MCP session its own rein session, every call through
 * `ctx.tools.execute`.
 */
export { serveStdio, protocolStdout, logsToStderr, type StdioOptions } from './stdio.js'
export { serveHttp, type HttpServing, type HttpOptions } from './http.js'
export { parseHostPort, isLoopback, requestCheck } from './request-check.js'
export { createMcpHost, type McpHost, type McpHostOptions } from './host.js'
export { McpSession } from './session.js'
export { sessionFiles, type SessionFiles } from './session-files.js'
export { listTools, type ToolPolicyLike, type ToolCatalog } from './listing.js'
export { callResult } from './results.js'
