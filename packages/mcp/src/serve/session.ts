/**
 * One MCP session as one rein session: an SDK `Server` whose `tools/list` lists the harness's
 * tools and whose `tools/call` runs each call through `ctx.tools.execute` with
 * `{ session: { id } }`, a call id unique in the session, the request's abort signal (so
 * `notifications/cancelled` aborts the call) and its progress forwarded as MCP progress
 * notifications when the client asked for them. A call never throws out of the handler: every
 * outcome is a result. Asks of this session's calls are put to its client as elicitations
 * (`ask`), when the client declared that capability.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema, ListToolsRequestSchema,
  type CallToolRequest, type CallToolResult, type ServerNotification, type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { deepFreeze, snapshot, type ApprovalAnswer, type ApprovalRequest, type Json, type ProgressInfo, type SessionRef, type ToolService } from '@rein/kernel'
import { listTools, type ToolPolicyLike } from './listing.js'
import { callResult, refusal } from './results.js'

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

/**
 * `tools/call` matched by its method alone: the SDK's own check of the params (which runs
 * before the handler) then answers bad params with InvalidParams rather than an internal
 * error, and the arguments reach the kernel as the client sent them (a `__proto__` key
 * included, which the kernel refuses), not rebuilt by a schema.
 */
const ToolsCall = CallToolRequestSchema.pick({ method: true }).passthrough()

/** What every session of one server shares: the harness's tools, the policy view, the limits. */
export interface SessionHost {
  tools: ToolService
  policy(): ToolPolicyLike | undefined
  warn(message: string): void
  /** Calls one session may have running at once; more are refused until some finish. */
  maxCallsInFlight: number
  /** How long an elicitation may wait for the person's answer. */
  approvalTimeoutMs: number
  /** Whether the person may answer "allow for the session" (else only allow once, or deny). */
  allowSession: boolean
  info: { name: string, version: string }
}

const ANSWERS: readonly string[] = ['allow-once', 'allow-session', 'deny'] satisfies ApprovalAnswer[]

/** One MCP session: its SDK `Server` (connect it to a transport) and its rein session id. Made by `McpHost.open`. */
export class McpSession {
  readonly server: Server
  private calls = 0
  /**
   * What every call of this MCP session carries as `exec.session`: its id, and plugin state kept
   * in memory for as long as the MCP session lives (an "allow-session" answer, a budget's counts),
   * seen by no other MCP session.
   */
  private readonly session: SessionRef
  /** The calls running now, by call id: how an ask reaches the request it belongs to. */
  private readonly running = new Map<string, Extra>()

  constructor(readonly id: string, private readonly host: SessionHost) {
    const values = new Map<string, Json>()
    this.session = Object.freeze({
      id,
      state: {
        get: (plugin: string, key: string) => values.get(JSON.stringify([plugin, key])),
        set: (plugin: string, key: string, value: Json) => {
          if (typeof plugin !== 'string' || plugin === '') throw new TypeError('session state: the plugin name must be a non-empty string')
          const snap = snapshot(value)
          if (!snap.ok) throw new TypeError(`session state of plugin "${plugin}", key "${key}": the value is not JSON (${snap.problem})`)
          values.set(JSON.stringify([plugin, key]), deepFreeze(snap.value))
        },
      },
    })
    this.server = new Server(host.info, { capabilities: { tools: { listChanged: true } } })
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(host.tools, host.policy(), host.warn) }))
    this.server.setRequestHandler(ToolsCall, (request, extra) => {
      const { params } = request as unknown as CallToolRequest
      return this.call(params.name, params.arguments ?? {}, extra)
    })
  }

  /** Tells the client the tool list changed (an upstream server's list did); a closed session ignores it. */
  toolsChanged(): void {
    this.server.sendToolListChanged().catch(() => {})
  }

  /**
   * Asks this session's client about one of its calls: an elicitation when the client can
   * answer one, else an error saying that it cannot (the kernel turns it into a refusal).
   */
  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const extra = this.running.get(request.exec.id)
    if (!this.server.getClientCapabilities()?.elicitation) {
      throw new Error('the MCP client cannot ask a person (it did not declare the elicitation capability), so the call was not run')
    }
    const answers = this.host.allowSession ? ANSWERS : ANSWERS.filter((answer) => answer !== 'allow-session')
    const result = await this.server.elicitInput({
      message: approvalMessage(request),
      requestedSchema: {
        type: 'object',
        properties: {
          answer: { type: 'string', title: 'Answer', enum: [...answers], description: `${answers.join(', ')}: allow-once runs this call${this.host.allowSession ? ', allow-session runs it and calls like it from now on' : ''}, deny refuses it` },
        },
        required: ['answer'],
      },
    }, {
      signal: request.exec.signal,
      timeout: this.host.approvalTimeoutMs,
      ...(extra ? { relatedRequestId: extra.requestId } : {}),
    })
    const answer = result.action === 'accept' ? result.content?.answer : undefined
    return typeof answer === 'string' && answers.includes(answer) ? answer as ApprovalAnswer : 'deny'
  }

  private async call(name: string, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    if (this.running.size >= this.host.maxCallsInFlight) {
      return refusal(`too many calls in flight in this session (${this.host.maxCallsInFlight}); wait for some to finish, then call again`)
    }
    const id = `call_${++this.calls}`
    this.running.set(id, extra)
    try {
      const result = await this.host.tools.execute({ id, name, arguments: args }, {
        signal: extra.signal,
        session: this.session,
        ...progressOption(extra),
      })
      return callResult(result)
    } finally {
      this.running.delete(id)
    }
  }
}

/** The `onProgress` option forwarding a call's progress, when the request carries a progress token. */
function progressOption(extra: Extra): { onProgress?: (info: ProgressInfo | undefined) => void } {
  const token = extra._meta?.progressToken
  if (token === undefined) return {}
  let last = 0
  return {
    onProgress: (info) => {
      // MCP progress must increase; a report without a larger number counts one step.
      last = typeof info?.progress === 'number' && info.progress > last ? info.progress : last + 1
      extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: last,
          ...(typeof info?.total === 'number' ? { total: info.total } : {}),
          ...(typeof info?.message === 'string' ? { message: info.message } : {}),
        },
      }).catch(() => {})
    },
  }
}

/** What the person is asked: the tool, why, and the arguments (cut to a readable length). */
function approvalMessage({ exec, reason }: ApprovalRequest): string {
  let args = JSON.stringify(exec.arguments)
  if (args.length > 2000) args = `${args.slice(0, 2000)}… (${args.length - 2000} more characters)`
  return `Allow the call to "${exec.name}"?${reason ? ` ${reason}.` : ''}\nArguments: ${args}`
}
