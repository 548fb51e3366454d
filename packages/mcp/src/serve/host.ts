/**
 * The harness side of `rein mcp serve`, shared by every transport: the open MCP sessions (each
 * its own rein session), the `ctx.approvalPrompt` that puts an ask to the client of the
 * session its call came from, and the forwarding of tool list changes (an upstream MCP server
 * changed its tools) to every client. `close()` removes all of it and closes the sessions; the
 * harness itself stays the caller's.
 */
import { randomUUID } from 'node:crypto'
import type { Context } from 'cordis'
import type { ApprovalPrompt, ApprovalRequest } from '@rein/kernel'
import type { ToolPolicyLike } from './listing.js'
import { McpSession, type SessionHost } from './session.js'

/** Options of `createMcpHost` (and of `serveStdio` / `serveHttp`). */
export interface McpHostOptions {
  /** Calls one session may have running at once (default 64); more are refused until some finish. */
  maxCallsInFlight?: number
  /** How long an elicitation waits for the person's answer, in ms (default 600000); then the call is refused. */
  approvalTimeoutMs?: number
  /**
   * Whether an elicitation offers "allow for the session". The policy's approval service keeps
   * such answers for the whole harness, not per MCP session, so with several sessions one
   * client's answer would cover the others' calls: `serveStdio` (one session) offers it,
   * `serveHttp` does not unless this is true.
   */
  allowSession?: boolean
  /** The name and version the server gives in `initialize` (default `rein`, `0.1.0`). */
  info?: { name: string, version: string }
}

/** The sessions of one server and what they share; `createMcpHost` makes it, a transport opens its sessions. */
export interface McpHost {
  /** A new session; `id` defaults to a random one. */
  open(id?: string): McpSession
  /** Closes one session (its server and transport). */
  close(session: McpSession): Promise<void>
  /** The sessions open now. */
  readonly sessions: ReadonlyMap<string, McpSession>
  /** Closes every session and removes the approval prompt and the listeners. */
  dispose(): Promise<void>
}

/** Starts serving `ctx`'s tools (the kernel must be started). Provides `ctx.approvalPrompt` unless one exists. */
export function createMcpHost(ctx: Context, options: McpHostOptions = {}): McpHost {
  const logger = ctx.logger('mcp-serve')
  const sessions = new Map<string, McpSession>()
  const shared: SessionHost = {
    tools: ctx.tools,
    policy: () => ctx.get('toolPolicy') as ToolPolicyLike | undefined,
    warn: (message) => logger.warn(message),
    maxCallsInFlight: options.maxCallsInFlight ?? 64,
    approvalTimeoutMs: options.approvalTimeoutMs ?? 600_000,
    allowSession: options.allowSession ?? true,
    info: options.info ?? { name: 'rein', version: '0.1.0' },
  }
  const prompt: ApprovalPrompt = {
    ask(request: ApprovalRequest) {
      const session = request.exec.session && sessions.get(request.exec.session.id)
      if (!session) throw new Error('the call came from no open MCP session, so nobody can be asked')
      return session.ask(request)
    },
  }
  const disposers: (() => void)[] = []
  if (ctx.get('approvalPrompt') === undefined) disposers.push(ctx.set('approvalPrompt', prompt))
  else logger.warn('an approvalPrompt is already provided; asks go to it, not to the MCP clients')
  disposers.push(ctx.on('mcp/server', (event) => {
    if (event.kind === 'tools' || event.kind === 'connected') for (const session of sessions.values()) session.toolsChanged()
  }))

  const close = async (session: McpSession) => {
    if (sessions.get(session.id) !== session) return
    sessions.delete(session.id)
    await session.server.close().catch(() => {})
  }
  return {
    sessions,
    open(id = randomUUID()) {
      const session = new McpSession(id, shared)
      sessions.set(id, session)
      session.server.onclose = () => { if (sessions.get(id) === session) sessions.delete(id) }
      return session
    },
    close,
    async dispose() {
      for (const dispose of disposers.splice(0)) dispose()
      await Promise.all([...sessions.values()].map(close))
    },
  }
}
