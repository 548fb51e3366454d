/**
 * The harness side of `rein mcp serve`, shared by every transport: the open MCP sessions (each
 * its own rein session), the `ctx.approvalPrompt` that puts an ask to the client of the
 * session its call came from, and the forwarding of tool list changes (an upstream MCP server
 * changed its tools) to every client. A session that ends has its store closed and, with
 * `sessionEnded`, what it kept removed. `dispose()` removes all of it and closes the sessions; the
 * harness itself stays the caller's.
 */
import { randomUUID } from 'node:crypto'
import type { Context } from 'cordis'
import type { ApprovalPrompt, ApprovalRequest } from '@rein/kernel'
import type { ToolPolicyLike } from './listing.js'
import { memorySession, type SessionStore } from '@rein/agent'
import { SessionFacts } from './facts.js'
import { McpSession, type SessionHost } from './session.js'

/** Options of `createMcpHost` (and of `serveStdio` / `serveHttp`). */
export interface McpHostOptions {
  /** Calls one session may have running at once (default 64); more are refused until some finish. */
  maxCallsInFlight?: number
  /** How long an elicitation waits for the person's answer, in ms (default 600000); then the call is refused. */
  approvalTimeoutMs?: number
  /**
   * Whether an elicitation offers "allow for the session" (default true). Such an answer is kept
   * in the MCP session's own state (`exec.session.state`), so it never covers another session.
   */
  allowSession?: boolean
  /**
   * `'park'`: an ask that the client cannot answer (no elicitation) is refused naming a request
   * recorded in the session's store, which `answerApproval` / `rein approve` answers; the same
   * call made again meets the answer. `'ask'` (default): such an ask is refused.
   */
  approvals?: 'ask' | 'park'
  /** With `approvals: 'park'`: a request not answered within this many ms can no longer be answered. */
  approvalExpiresAfterMs?: number
  /**
   * The store of one MCP session's facts (its state, its approval requests and answers), made when
   * the session opens and closed when it closes; default a store in memory. Give a file store
   * (`jsonlSession(path)`, or `sessionFiles(dir)`, which removes it too) for requests that
   * `rein approve --session <path>` can answer.
   */
  sessionStore?: (mcpSessionId: string) => SessionStore
  /**
   * Called once per session after it ended (its client ended it, its transport closed, or the
   * host was disposed) and its store was closed after its last write: the place to remove what
   * `sessionStore` made, since no later session can meet what it holds. `sessionFiles(dir)` gives
   * both. A failure is logged as a warning.
   */
  sessionEnded?: (mcpSessionId: string) => void | Promise<void>
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

  // The session's facts take no more writes, its store is closed, then what it made is removed.
  const ended = async (session: McpSession) => {
    await session.facts.end()
    await session.facts.store.close?.().catch((error: unknown) => {
      logger.warn(`could not close the store of MCP session ${session.id}: ${String(error)}`)
    })
    if (!options.sessionEnded) return
    try {
      await options.sessionEnded(session.id)
    } catch (error) {
      logger.warn(`could not remove what MCP session ${session.id} kept: ${String(error)}`)
    }
  }
  const close = async (session: McpSession) => {
    if (sessions.get(session.id) !== session) return
    sessions.delete(session.id)
    await session.server.close().catch(() => {})
    await ended(session)
  }
  return {
    sessions,
    open(id = randomUUID()) {
      const store = options.sessionStore ? options.sessionStore(id) : memorySession()
      let session: McpSession | undefined
      const facts = new SessionFacts(store, {
        approvals: options.approvals ?? 'ask',
        expiresAfterMs: options.approvalExpiresAfterMs,
        canAsk: () => session?.server.getClientCapabilities()?.elicitation !== undefined,
        warn: (message) => logger.warn(message),
      })
      session = new McpSession(id, shared, facts)
      const opened = session
      sessions.set(id, opened)
      opened.server.onclose = () => {
        if (sessions.get(id) !== opened) return
        sessions.delete(id)
        void ended(opened)
      }
      return opened
    },
    close,
    async dispose() {
      for (const dispose of disposers.splice(0)) dispose()
      await Promise.all([...sessions.values()].map(close))
    },
  }
}
