/**
 * The `mcp` plugin: connects to every configured server when it starts and keeps each
 * server's tools registered as `<server>__<tool>`. A server that cannot be started is
 * warned about and left out; the others work. Disposing the plugin closes every client and
 * stops every child process. Lifecycle news goes out as the cordis event `mcp/server`.
 */
import type { Context, Logger } from 'cordis'
import { checkConfig, type Config, type ServerConfig } from './config.js'
import { ServerConnection } from './connection.js'
import { ServerTools } from './registrar.js'

/** What the plugin reports about a server (observe only; e.g. for a CLI's status line). */
export type McpServerEvent =
  | { kind: 'connected', server: string, pid?: number, tools: string[] }
  | { kind: 'tools', server: string, tools: string[] }
  | { kind: 'closed', server: string, reason: string }
  | { kind: 'failed', server: string, error: string }

declare module 'cordis' {
  interface Events<C> {
    'mcp/server'(event: McpServerEvent): void
  }
}

/**
 * Runs when the plugin is added (after the kernel). Resolves once every server has either
 * connected and registered its tools or failed (warned). Throws on a bad config entry.
 */
export async function apply(ctx: Context, config: Config): Promise<void> {
  checkConfig(config)
  const logger = ctx.logger('mcp')
  const servers = Object.entries(config.servers ?? {}).map(([name, server]) => mount(ctx, name, server, logger))
  ctx.effect(() => () => Promise.all(servers.map((connection) => connection.close())).then(() => {}))
  await Promise.all(servers.map(async (connection) => {
    try {
      await connection.connect()
    } catch (error) {
      if (connection.closed) return
      const message = connection.explain(error)
      logger.warn('server "%s" could not be started; its tools are not available: %s', connection.server, message)
      ctx.emit('mcp/server', { kind: 'failed', server: connection.server, error: message })
    }
  }))
}

/** One server: its connection, wired to its registrations and to the `mcp/server` event. */
function mount(ctx: Context, server: string, config: ServerConfig, logger: Logger): ServerConnection {
  let tools: ServerTools | undefined
  const connection = new ServerConnection(server, config, {
    tools: (list) => {
      const names = tools!.update(list)
      ctx.emit('mcp/server', { kind: 'tools', server, tools: names })
    },
    connected: (pid) => {
      logger.debug('server "%s" connected%s', server, pid === undefined ? '' : ` (pid ${pid})`)
      ctx.emit('mcp/server', { kind: 'connected', server, ...(pid === undefined ? {} : { pid }), tools: tools!.names() })
    },
    closed: (reason) => {
      logger.warn('server "%s" went away (%s); it will be restarted on the next call', server, reason)
      ctx.emit('mcp/server', { kind: 'closed', server, reason })
    },
  }, logger)
  tools = new ServerTools(connection, (definition) => ctx.tools.register(definition), logger)
  return connection
}
