import { TOOL_TIMEOUT } from '@rein/kernel'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { MCP_REQUEST_FAILED, MCP_SERVER_UNAVAILABLE } from '../src/index.js'
import { classify, describe as describeError } from '../src/errors.js'

describe('classify', () => {
  it('a closed connection is MCP_SERVER_UNAVAILABLE and breaks the connection', () => {
    const { error, broken } = classify(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), 'fs', 'read', undefined)
    expect(error.code).toBe(MCP_SERVER_UNAVAILABLE)
    expect(error.message).toBe('MCP server "fs" is unavailable (the connection closed while "read" was running); '
      + 'it will be restarted on the next call')
    expect(broken).toBe(true)
  })

  it('the request timeout is TOOL_TIMEOUT with the timeout in force', () => {
    const { error, broken } = classify(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), 'fs', 'read', 1500)
    expect(error.code).toBe(TOOL_TIMEOUT)
    expect(error.message).toBe('tool call timed out after 1500ms')
    expect(broken).toBe(false)
  })

  it('a JSON-RPC error from the server is MCP_REQUEST_FAILED and keeps the connection', () => {
    const { error, broken } = classify(new McpError(ErrorCode.InvalidParams, 'bad'), 'fs', 'read', undefined)
    expect(error.code).toBe(MCP_REQUEST_FAILED)
    expect(broken).toBe(false)
  })

  it('any other failure is the transport: unavailable, connection broken', () => {
    const { error, broken } = classify(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }), 'web', 'ping', undefined)
    expect(error.code).toBe(MCP_SERVER_UNAVAILABLE)
    expect(error.message).toContain('fetch failed: connect ECONNREFUSED')
    expect(broken).toBe(true)
  })
})

describe('describe', () => {
  it('names the HTTP status and hints at credentials for 401 and 403', () => {
    expect(describeError(new StreamableHTTPError(401, 'nope'))).toMatch(/^HTTP 401 \(check the credentials in this server's headers\): /)
    expect(describeError(new StreamableHTTPError(500, 'oops'))).toMatch(/^HTTP 500: /)
  })
})
