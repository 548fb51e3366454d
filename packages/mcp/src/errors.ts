/**
 * How a failed MCP request becomes a rein failure. The tool body throws a `CodedError`,
 * whose `code` the kernel copies into `error.info.code`. A rejection decides two things: the
 * code and message the model sees, and whether the connection is broken (then the next call
 * starts the server again). A server's own JSON-RPC error never breaks the connection, nor
 * does a result that fails the SDK's schema check.
 */
import { CodedError, Messages, TOOL_TIMEOUT } from '@rein/kernel'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { MCP_REQUEST_FAILED, MCP_SERVER_UNAVAILABLE } from './codes.js'

/** The SDK's per-request timeout when a server sets no `timeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 60_000

/** A classified rejection: what to throw, and whether the connection must be dropped. */
export interface Classified {
  error: CodedError
  broken: boolean
}

/** The message of a server that went away; says what happens next. */
export function unavailable(server: string, why: string): CodedError {
  return new CodedError(`MCP server "${server}" is unavailable (${why}); it will be restarted on the next call`, MCP_SERVER_UNAVAILABLE)
}

/** Leaves a text as it is: for callers with no secrets to hide. */
const asIs = (text: string) => text

/**
 * Classifies a rejection of `callTool` that was not caused by the call's own signal.
 * `timeoutMs` is the request timeout in force, for the `TOOL_TIMEOUT` message; `redact`
 * takes the server's secrets out of the message (it may quote what the server said).
 */
export function classify(error: unknown, server: string, tool: string, timeoutMs: number | undefined,
  redact: (text: string) => string = asIs): Classified {
  const { error: raw, broken } = classifyRaw(error, server, tool, timeoutMs)
  return { error: new CodedError(redact(raw.message), raw.code), broken }
}

function classifyRaw(error: unknown, server: string, tool: string, timeoutMs: number | undefined): Classified {
  if (error instanceof McpError) {
    switch (error.code) {
      case ErrorCode.ConnectionClosed:
        return { error: unavailable(server, `the connection closed while "${tool}" was running`), broken: true }
      case ErrorCode.RequestTimeout:
        return { error: timedOut(error, timeoutMs), broken: false }
      default:
        return {
          error: new CodedError(`MCP server "${server}" refused the call to "${tool}": ${error.message}`, MCP_REQUEST_FAILED),
          broken: false,
        }
    }
  }
  // A result that fails the SDK's schema is the server's mistake, not a dead connection.
  if (isValidationError(error)) {
    return {
      error: new CodedError(`MCP server "${server}" answered "${tool}" with a malformed result`, MCP_REQUEST_FAILED),
      broken: false,
    }
  }
  return { error: unavailable(server, describe(error)), broken: true }
}

/** The total ceiling the SDK enforced (`maxTotalTimeout`), when `error` is that timeout. */
export function totalCeiling(error: unknown): number | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.RequestTimeout) return undefined
  const ceiling = (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout
  return typeof ceiling === 'number' ? ceiling : undefined
}

/** `TOOL_TIMEOUT`: the per-request timeout, or the total ceiling of a call that kept reporting progress. */
function timedOut(error: McpError, timeoutMs: number | undefined): CodedError {
  const ceiling = totalCeiling(error)
  if (ceiling === undefined) return new CodedError(Messages.timedOut(timeoutMs ?? DEFAULT_TIMEOUT_MS), TOOL_TIMEOUT)
  return new CodedError(`${Messages.timedOut(ceiling)} (the most one call may run, progress or not)`, TOOL_TIMEOUT)
}

/**
 * Whether `error` is the SDK's schema check of a result failing: zod's error is named
 * `ZodError` in zod 3 and `$ZodError` in zod 4, and always carries an `issues` array.
 */
function isValidationError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return /ZodError$/.test(error.name) || Array.isArray((error as { issues?: unknown }).issues)
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
