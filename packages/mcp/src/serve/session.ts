/**
 * One MCP session as one rein session: an SDK `Server` whose `tools/list` lists the harness's
 * tools and whose `tools/call` runs each call through `ctx.tools.execute` with
 * `{ session: { id } }`, a call id unique in the session, the request's abort signal (so
 * `notifications/cancelled` aborts the call) and its progress forwarded as MCP progress
 * notifications when the client asked for them. A call never throws out of the handler: every
 * outcome is a result. Asks of this session's calls are put to its client as elicitations
 * (`ask`), when the client declared that capability. Its calls carry the session's facts
 * (`exec.session.state` and `.approvals`, `SessionFacts`, in the session's own store): under
 * `approvals: 'park'` an ask its client cannot answer is refused naming the request recorded
 * there, which `rein approve` answers, and the same call made again meets the answer.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema, ListToolsRequestSchema,
  type CallToolRequest, type CallToolResult, type ServerNotification, type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { APPROVAL_PARKED, codeOf, type ApprovalAnswer, type ApprovalRequest, type Json, type ProgressInfo, type ToolExecutionResult, type ToolService } from '@rein/kernel'
import type { SessionFacts } from './facts.js'
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
  /** The calls running now, by call id: how an ask reaches the request it belongs to. */
  private readonly running = new Map<string, Extra>()

  /** `facts`: this session's state and approvals, in its own store (made for it by the host). */
  constructor(readonly id: string, private readonly host: SessionHost, readonly facts: SessionFacts) {
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
    let result: ToolExecutionResult | undefined
    try {
      // A request waits: read the store afresh, so an answer written meanwhile (`rein approve`) is seen.
      try {
        await this.facts.ready(this.facts.waiting)
      } catch (error) {
        return refusal(`this MCP session's store ${this.facts.store.id} cannot be read (${(error as Error).message}), so no call runs; fix or move it, then open a new session`)
      }
      result = await this.host.tools.execute({ id, name, arguments: args }, {
        signal: extra.signal,
        session: { id: this.id, state: this.facts, approvals: this.facts },
        ...progressOption(extra),
      })
      if (codeOf(result) === APPROVAL_PARKED) return await this.parked(id, name, args, result)
      return callResult(result)
    } finally {
      this.running.delete(id)
      if (result) await this.facts.ended(id, result)
    }
  }

  /** The refusal of a call that parked, naming its request (recorded now, or the one standing for the same call). */
  private async parked(id: string, name: string, args: Record<string, unknown>, result: ToolExecutionResult): Promise<CallToolResult> {
    const why = result.isError ? result.error.message.replace(/ awaits approval/, ' needs approval') : `"${name}" needs approval`
    let request: string
    try {
      request = await this.facts.park(id, name, args as { [key: string]: Json })
    } catch (error) {
      return refusal(`${why}, and the request could not be recorded in ${this.facts.store.id} (${(error as Error).message}); the call was not run`)
    }
    const session = this.facts.store.id
    return refusal(`${why}, and this MCP client cannot ask a person. The request is recorded as ${request} in session ${session}: ` +
      `answer it with \`rein approve ${request} --session ${session}\` (add --deny to refuse), then call ${name} again with the same arguments; the call was not run`)
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
