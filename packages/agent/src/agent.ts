/**
 * The agent loop. It only orchestrates: ask the model with `ctx.tools.specs()`, hand the
 * batch of tool calls to the scheduler, which commits their results in model order, ask
 * again. It ends `completed` (an answer without calls, or a `concludesTurn` result),
 * `max-turns` (said to the model in the transcript), `aborted` (the transcript stays valid; a
 * parked call stays parked),
 * `stopped` (a result with `endsRun`, such as a budget's `end-run`, after its batch commits),
 * `awaiting-approval` (a call parked for a person's answer: `approvals: 'park'`, DESIGN.md §7.2;
 * `agent.run()` without input continues it, in any process) or `error` (a provider, session or
 * scheduler failure: nothing is made up; the next run repairs).
 */
import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { Context } from 'cordis'
import { serviceOf } from '@rein/cordis-internals'
import {
  type AssistantMessage, type ContentBlock, type Message, type Provider, type ToolCall, type ToolExecutionResult, type ToolService,
} from '@rein/kernel'
import { ApprovalBook, type ApprovalsMode, type ParkedCall } from './approval-book.js'
import { renameRepeatedIds } from './call-ids.js'
import { AgentEvents } from './events.js'
import { askModel } from './model-call.js'
import { continuationOf, parkedTurnOf, type ParkedTurn } from './parked-turn.js'
import { repairSession } from './repair.js'
import { runBatch, type BatchOutcome } from './scheduler.js'
import { memorySession, type SessionStore } from './session.js'
import { SessionLog } from './session-log.js'
import { enterRun } from './session-runs.js'
import { after, closeTurn, joined, type TurnClose } from './turn-appends.js'
import { batchTools, type BatchTools } from './tool-access.js'

/** Options of `createAgent` (DESIGN.md §3, contract). */
export interface AgentOptions {
  provider: Provider
  /** The system message, written once at the start of a new session. */
  system?: string
  /** Model requests per run (default 10). */
  maxTurns?: number
  /** Calls of one batch in flight at once (default 10). */
  maxParallelToolCalls?: number
  /** Where the conversation is kept (default: a new `memorySession()`). */
  session?: SessionStore
  /** Names this agent in events, `exec.agent` and the stage hooks' plugin name (default `agent`). */
  name?: string
  /**
   * What an ask that no answer recorded in the session covers becomes (DESIGN.md §7.2, contract):
   * `'ask'` (default) goes to the live asker (none: a deny); `'park'` parks the call, and the run
   * resolves `awaiting-approval` once every call that can run has run.
   */
  approvals?: ApprovalsMode
  /** How long a parked request can be answered (ms; default: no limit); after that the continuation denies its call. */
  approvalExpiresAfterMs?: number
}

/** Options of one `agent.run`. */
export interface RunOptions {
  signal?: AbortSignal
}

/** How a run ended, and the whole transcript of the session so far. */
export interface RunOutcome {
  kind: 'completed' | 'max-turns' | 'aborted' | 'error' | 'stopped' | 'awaiting-approval'
  messages: Message[]
  /**
   * The calls waiting for approval, in model order, for `awaiting-approval`, and for `aborted` when
   * the abort left calls parked: answer them with `answerApproval`, then `run()`.
   */
  approvals?: ParkedCall[]
  error?: Error
  /** Why a `stopped` run stopped: the call whose result asked it to, and that result's code and message. */
  stop?: { callId: string, tool: string, code?: string, message: string }
  /**
   * The answer: the text of the model's last message, present only when `kind` is
   * `completed` ('' when that message had only tool calls, as when a `concludesTurn` result
   * ended the run). A run that stopped early has no answer; its last words are in `messages`.
   */
  text?: string
}

/** An agent: runs the loop over one session on one context. */
export interface Agent {
  /**
   * Adds `input` as a user message (none when undefined: resume as is) and runs the loop.
   * Every run first sees what other writers added to the session since this agent last read it
   * (another store, process or `answerApproval`), and repairs calls left without a result; a run
   * without input on a session awaiting approval continues the parked batch first. A run with
   * input on a session awaiting approval is an `error` and writes nothing. While a run is in
   * progress, `answerApproval` refuses to answer in its session. Rejects only when called while
   * another run of this agent is in progress.
   */
  run(input?: string | ContentBlock[], options?: RunOptions): Promise<RunOutcome>
  readonly session: SessionStore
  /** Removes the agent's stage hooks from the context. */
  dispose(): void
}

interface Settings {
  provider: Provider
  system?: string
  maxTurns: number
  maxParallelToolCalls: number
  session: SessionStore
  name: string
  approvals: ApprovalsMode
  approvalExpiresAfterMs?: number
}

/** The text that tells the model the run stopped at its turn limit. */
export const maxTurnsNotice = (maxTurns: number) =>
  `[rein] This run stopped after ${maxTurns} model requests (its maxTurns limit). ` +
  'The tool results above are complete; nothing further was run. Continue in a new run if more is needed.'

/**
 * The signal of a run given none, shared by its calls: without one the kernel makes each call
 * its own the first time a plugin reads `exec.signal` (timeout-policy does). Every call's body
 * may listen to it, so it takes any number of listeners without Node's leak warning (which is
 * meant for one emitter that keeps gaining listeners, not one per call in flight).
 */
function runSignal(): AbortSignal {
  const { signal } = new AbortController()
  setMaxListeners(0, signal)
  return signal
}

/** Creates an agent on a context that has `ctx.tools`. Throws at once on bad options. */
export function createAgent(ctx: Context, options: AgentOptions): Agent {
  const settings = checkOptions(options)
  // The service object itself, read once from cordis' table: `ctx.get` and every read through what
  // it hands out build tracing proxies (docs/performance.md, "Services read once").
  const service = serviceOf<ToolService>(ctx, 'tools')
  if (!service) {
    throw new Error('createAgent(ctx): ctx.tools is missing; call ctx.plugin(kernel) (from @rein/kernel) and await ctx.start() first')
  }
  const tools = batchTools(service)
  const book = new ApprovalBook(settings.approvals, settings.approvalExpiresAfterMs)
  const log = new SessionLog(settings.session, book)
  let running = false
  return {
    session: settings.session,
    async run(input, runOptions = {}) {
      if (running) throw new Error(`agent "${settings.name}" is already running; await the previous run() before starting another`)
      running = true
      // Until it returns, `answerApproval` refuses to write into this session (`session-runs.ts`).
      const leave = enterRun(settings.session.id)
      try {
        return await runLoop({ ctx, service, tools, log, book, settings }, input, runOptions.signal ?? runSignal())
      } finally {
        leave()
        running = false
      }
    },
    // Nothing to remove: the agent registers no plugin, hook or listener on the context.
    dispose: () => {},
  }
}

interface LoopEnv {
  ctx: Context
  /** The kernel's service, read once (the object behind `ctx.tools`: `serviceOf`), and what batches use of it. */
  service: ToolService
  tools: BatchTools
  log: SessionLog
  book: ApprovalBook
  settings: Settings
}

async function runLoop(env: LoopEnv, input: string | ContentBlock[] | undefined, signal?: AbortSignal): Promise<RunOutcome> {
  const { ctx, service, tools, log, book, settings } = env
  const agent = settings.name
  const runId = randomUUID()
  const events = new AgentEvents(ctx, runId)
  const model = modelOf(settings.provider)
  let steps = 0
  const end = (kind: RunOutcome['kind'], error?: unknown, stop?: RunOutcome['stop'], approvals?: ParkedCall[]): RunOutcome => {
    const messages = log.messages()
    const outcome: RunOutcome = error === undefined ? { kind, messages } : { kind, messages, error: asError(error) }
    if (stop) outcome.stop = stop
    if (approvals) outcome.approvals = approvals
    if (kind === 'completed') outcome.text = finalText(messages)
    if (events.listens('agent/run-end')) {
      events.emit('agent/run-end', { runId, agent, at: Date.now(), outcome: kind, error: outcome.error, steps })
    }
    events.close()
    return outcome
  }
  // The last batch's results and turn end: appended, maybe not yet durable. The next model request
  // does not wait for them; the next calls and the run's end do (docs/ARCHITECTURE.md, "Logging, abort, failure and crashes").
  let durable: Promise<unknown> | undefined
  const finish = async (kind: RunOutcome['kind'], error?: unknown, stop?: RunOutcome['stop'], approvals?: ParkedCall[]): Promise<RunOutcome> => {
    try {
      await durable
    } catch (failure) {
      return end('error', failure)
    }
    return end(kind, error, stop, approvals)
  }
  if (events.listens('agent/run-start')) {
    events.emit('agent/run-start', { runId, agent, at: Date.now(), observe: (observer) => events.observe(observer) })
  }
  try {
    // What others wrote meanwhile is seen by every run: answers, and a batch another store parked.
    await log.open()
    book.read(log.all)
    let parked = parkedTurnOf(log.all, book.current)
    if (parked && input !== undefined) return end('error', awaitingError(log.store.id, parked, book))
    if ((await repairSession(ctx, log, agent, book, signal, parked)).parked) {
      // A call run again by repair parked: the session now awaits approval, as if it had parked before the crash.
      book.read(log.all)
      parked = parkedTurnOf(log.all, book.current)
      if (parked && input !== undefined) return end('error', awaitingError(log.store.id, parked, book))
    }
    if (settings.system !== undefined && log.all.length === 0) {
      await log.append({ type: 'message', message: { role: 'system', content: settings.system } })
    }
    if (input !== undefined) await log.append({ type: 'message', message: { role: 'user', content: input } })
    for (let requests = 0; ;) {
      let turn: number
      let calls: readonly ToolCall[]
      let batch: BatchOutcome
      // The turn's closing entries are appended as soon as the last result's append is issued,
      // so that they share its write; they are awaited only once the batch is committed.
      const closing: { entries?: TurnClose } = {}
      const batchEnv = {
        tools, events, agent, signal, session: log.session, approvals: book, maxParallel: settings.maxParallelToolCalls,
        close: (results: readonly ToolExecutionResult[]) => { closing.entries = closeTurn(log, turn, results, signal?.aborted === true) },
      }
      if (parked) {
        // The batch that parked, again: its results stand, the rest runs (answered), parks again or is denied (expired).
        ({ turn, calls } = parked)
        const resume = continuationOf(log.all, parked, book.current, Date.now())
        parked = undefined
        batch = await runBatch(calls, { ...batchEnv, log, turn, resume })
      } else {
        if (signal?.aborted) return await finish('aborted')
        if (requests >= settings.maxTurns) {
          await durable
          await log.append({ type: 'message', message: { role: 'user', content: maxTurnsNotice(settings.maxTurns) } })
          return end('max-turns')
        }
        requests++
        turn = log.turn + 1
        const step = ++steps
        const messages = log.messages(true)
        if (events.listens('agent/model-request')) {
          events.emit('agent/model-request', { runId, agent, turn, step, at: Date.now(), model, messages })
        }
        let answer: AssistantMessage
        let finishReason: string | undefined
        try {
          answer = await askModel(settings.provider, { messages, tools: service.specs(), signal },
            (text) => events.emit('agent/text-delta', { runId, agent, turn, step, text }),
            (reason) => { finishReason = reason }, service.abandonAfterMs)
        } catch (error) {
          if (events.listens('agent/model-response')) {
            events.emit('agent/model-response', { runId, agent, turn, step, at: Date.now(), model, error: asError(error) })
          }
          return await (signal?.aborted ? finish('aborted') : finish('error', error))
        }
        // Ids repeated within the message are renamed before anything sees it (the transcript must
        // tell every call's result apart); the scheduler answers the renamed calls INVALID_PLAN.
        const givenIds = answer.toolCalls ? renameRepeatedIds(answer.toolCalls) : undefined
        if (events.listens('agent/model-response')) {
          events.emit('agent/model-response', {
            runId, agent, turn, step, at: Date.now(), model, message: answer, finishReason, usage: answer.usage,
          })
        }
        // The message, and the last batch's results before it: the calls run once both are durable.
        const asked = joined(durable, log.add({ type: 'message', turn, message: answer }))
        durable = undefined
        calls = answer.toolCalls ?? []
        if (calls.length === 0) {
          await asked
          return end('completed')
        }
        asked?.catch(() => {}) // awaited below, after the batch: its calls fail with it meanwhile
        batch = await runBatch(calls, { ...batchEnv, log: asked ? after(asked, log) : log, turn, givenIds })
        await asked
      }
      if (batch.kind === 'failed') {
        events.emit('agent/turn-end', { runId, agent, turn, calls: calls.length, outcome: 'failed' })
        return end('error', batch.error)
      }
      if (batch.kind === 'parked') {
        events.emit('agent/turn-end', { runId, agent, turn, calls: calls.length, outcome: 'parked' })
        // Asked to stop: the run is aborted, and its parked calls stay parked (answerable; `run()` continues them).
        if (signal?.aborted) return end('aborted', undefined, undefined, batch.parked.filter((call) => !book.current.byId.get(call.id)?.answer))
        return end('awaiting-approval', undefined, undefined, [...batch.parked])
      }
      const { outcome, written } = closing.entries!
      durable = joined(batch.durable, written)
      durable?.catch(() => {}) // awaited before the next calls run and before the run ends
      events.emit('agent/turn-end', { runId, agent, turn, calls: calls.length, outcome })
      if (outcome === 'aborted') return await finish('aborted')
      const stopAt = batch.results.findIndex((result) => result.isError && result.endsRun)
      if (stopAt !== -1) return await finish('stopped', undefined, stopOf(calls[stopAt]!, batch.results[stopAt]!))
      if (batch.results.some((result) => !result.isError && result.concludesTurn)) return await finish('completed')
    }
  } catch (error) {
    return await finish('error', error)
  }
}

/** The error of a run given input while its session awaits approval. */
function awaitingError(session: string, parked: ParkedTurn, book: ApprovalBook): Error {
  const ids = [...parked.continuing].flatMap((index) => {
    const record = book.current.byCall.get(`${parked.turn}:${index}`)
    return record && !record.answer ? [record.request.id] : []
  })
  return new Error(`session ${session} awaits approval (${ids.length === 0 ? 'answered, not yet continued' : `pending: ${ids.join(', ')}`}); ` +
    'answer each request (answerApproval), then continue it with run() and no input; nothing was written')
}

function checkOptions(options: AgentOptions): Settings {
  const where = 'createAgent(ctx, options)'
  if (typeof options?.provider?.generate !== 'function') {
    throw new TypeError(`${where}: options.provider must be a Provider with a generate(req) method`)
  }
  const count = (key: 'maxTurns' | 'maxParallelToolCalls', fallback: number) => {
    const value = options[key] ?? fallback
    if (!Number.isInteger(value) || value < 1) {
      throw new TypeError(`${where}: options.${key} must be a whole number of at least 1 (got ${JSON.stringify(value)})`)
    }
    return value
  }
  if (options.system !== undefined && typeof options.system !== 'string') {
    throw new TypeError(`${where}: options.system must be a string`)
  }
  const session = options.session ?? memorySession()
  if (typeof session.load !== 'function' || typeof session.append !== 'function') {
    throw new TypeError(`${where}: options.session must be a SessionStore (id, load() and append(entry)), e.g. jsonlSession(path)`)
  }
  if (typeof session.id !== 'string' || session.id === '') {
    throw new TypeError(`${where}: options.session.id must be a non-empty string naming the session (the same in every process that opens it)`)
  }
  return {
    provider: options.provider,
    system: options.system,
    maxTurns: count('maxTurns', 10),
    maxParallelToolCalls: count('maxParallelToolCalls', 10),
    session,
    name: options.name ?? 'agent',
    approvals: approvalsModeOf(options.approvals),
    approvalExpiresAfterMs: expiryOf(options.approvalExpiresAfterMs),
  }
}

function approvalsModeOf(mode: unknown): ApprovalsMode {
  if (mode === undefined || mode === 'ask' || mode === 'park') return mode ?? 'ask'
  throw new TypeError(`createAgent(ctx, options): options.approvals must be 'ask' or 'park' (got ${JSON.stringify(mode)})`)
}

function expiryOf(ms: unknown): number | undefined {
  if (ms === undefined || (Number.isInteger(ms) && (ms as number) > 0)) return ms as number | undefined
  throw new TypeError(`createAgent(ctx, options): options.approvalExpiresAfterMs must be a whole number of milliseconds above 0 (got ${JSON.stringify(ms)})`)
}

/** The provider's model name, when it exposes a string `model` (as `@rein/provider-openai` does). */
function modelOf(provider: Provider): string | undefined {
  const model = (provider as { model?: unknown }).model
  return typeof model === 'string' && model !== '' ? model : undefined
}

/** The text of the last assistant message: the model's answer when a run completes. */
function finalText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role === 'assistant') return message.content
  }
  return ''
}

/** What stopped a run: the call (as the batch renamed it) and its failure. */
function stopOf(call: ToolCall, result: ToolExecutionResult): NonNullable<RunOutcome['stop']> {
  const failed = result as Extract<ToolExecutionResult, { isError: true }>
  const stop: NonNullable<RunOutcome['stop']> = { callId: call.id, tool: call.name, message: failed.error.message }
  if (failed.error.info?.code) stop.code = failed.error.info.code
  return stop
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
