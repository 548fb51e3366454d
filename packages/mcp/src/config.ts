/**
 * The plugin's configuration (DESIGN.md §4b): a dictionary of MCP servers, each either a
 * child process spoken to over stdio or a streamable-HTTP endpoint. cordis checks the shape
 * when the plugin is added; `checkConfig` adds what a schema cannot say (server names that
 * keep `<server>__<tool>` unambiguous, URLs that parse), so a bad entry fails the start.
 */
import { Schema } from 'cordis'
import { serverRedactor } from './secrets.js'

/** A server started as a child process and spoken to over its stdin/stdout. */
export interface StdioServerConfig {
  /** The executable (resolved on PATH). */
  command: string
  args?: string[]
  /** Added to a small safe default environment (HOME, PATH, USER...), not to the whole of ours. */
  env?: Record<string, string>
  /** The child's working directory. Default: this process's cwd. */
  cwd?: string
  /**
   * Per MCP request (list, call), reset by each progress notification; also the tools'
   * `timeoutMs` for the timeout plugin. The first handshake gets at least 60000. Default 60000.
   */
  timeoutMs?: number
  /**
   * The most one tool call may run however often it reports progress (checked at each
   * progress notification; the request is then cancelled). Default 10 x `timeoutMs`.
   */
  maxTotalMs?: number
}

/** A server reached over the streamable HTTP transport. */
export interface HttpServerConfig {
  /** The endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string
  /** Sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>
  /** Per MCP request, as for stdio servers. Default 60000. */
  timeoutMs?: number
  /** The most one tool call may run, progress or not, as for stdio servers. Default 10 x `timeoutMs`. */
  maxTotalMs?: number
}

export type ServerConfig = StdioServerConfig | HttpServerConfig

export interface Config {
  /** Server name -> how to reach it. The name becomes the prefix of its tools' names. */
  servers: Record<string, ServerConfig>
}

const timeoutMs = Schema.natural().min(1).description('Per-request timeout in ms (reset by progress).')
const maxTotalMs = Schema.natural().min(1).description('The most one call may run in ms, progress or not.')

const Stdio: Schema<StdioServerConfig> = Schema.object({
  command: Schema.string().required().description('The executable of the server.'),
  args: Schema.array(Schema.string()).description('Its arguments.'),
  env: Schema.dict(Schema.string()).description('Extra environment variables.'),
  cwd: Schema.string().description('Its working directory.'),
  timeoutMs,
  maxTotalMs,
}) as Schema<StdioServerConfig>

const Http: Schema<HttpServerConfig> = Schema.object({
  url: Schema.string().required().description('The streamable HTTP endpoint.'),
  headers: Schema.dict(Schema.string()).description('Headers sent with every request.'),
  timeoutMs,
  maxTotalMs,
}) as Schema<HttpServerConfig>

export const Config: Schema<Config> = Schema.object({
  servers: Schema.dict(Schema.union([Stdio, Http])).default({}).description('MCP servers by name.'),
}) as Schema<Config>

/** Server names: letters, digits, `-` and single `_`, not at either end, at most 40 characters. */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/
const MAX_SERVER_NAME = 40

/** Thrown at start for a config entry that cannot work; names the entry and the fix. */
export class McpConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'McpConfigError'
  }
}

/** Whether an entry is a stdio server (it has a `command`). */
export function isStdio(config: ServerConfig): config is StdioServerConfig {
  return typeof (config as StdioServerConfig).command === 'string'
}

/** Checks what the schema cannot. Runs once, when the plugin starts; throws `McpConfigError`. */
export function checkConfig(config: Config): void {
  for (const [name, server] of Object.entries(config.servers ?? {})) {
    const where = `@rein/mcp: servers.${name}`
    if (!SERVER_NAME.test(name) || name.length > MAX_SERVER_NAME) {
      throw new McpConfigError(`${where}: a server name must be 1-${MAX_SERVER_NAME} letters, digits, "-" or single "_" `
        + `(no "__", not at either end), because its tools are named "<server>__<tool>"; rename the entry`)
    }
    const problem = serverProblem(server)
    // A URL may hold a configured header value or credentials: the message is redacted whole.
    if (problem !== undefined) throw new McpConfigError(`${where}: ${serverRedactor(server)(problem)}`)
  }
}

/** What is wrong with one server entry beyond its shape, or undefined. */
function serverProblem(server: ServerConfig): string | undefined {
  if (isStdio(server)) return server.command.trim() ? undefined : 'command must not be empty'
  let url: URL
  try {
    url = new URL(server.url)
  } catch {
    return `url "${server.url}" is not a valid URL`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `url must be http: or https:, got "${url.protocol}"`
  return undefined
}
