import { Logger } from 'cordis'
import { ServerConnection } from '../src/connection.js'

/** A connection that is never opened: enough to build definitions and registrations from. */
export function idleConnection(server = 'srv', timeoutMs?: number): ServerConnection {
  const hooks = { tools: () => {}, connected: () => {}, closed: () => {} }
  return new ServerConnection(server, { command: 'unused', ...(timeoutMs ? { timeoutMs } : {}) }, hooks, new Logger('mcp-test'))
}

/** A tool as a server would list it. */
export function listed(name: string, extra: Record<string, unknown> = {}) {
  return { name, inputSchema: { type: 'object' as const, properties: {} }, ...extra }
}
