/**
 * The sub-calls of one run. Each `tools.<name>(args)` of the code becomes one
 * `ctx.tools.execute`, so every plugin applies to it as to a call of the model's own; it goes
 * straight to the pipeline, not through the agent's batch scheduler. Guarantees: only callable
 * tools run, at most `maxCalls` per run and `maxParallelCalls` at once; each carries
 * `parent` (the run_code call's id), `turn`, `agent` and `session` (so per-session plugins count
 * it, and its idempotency key is its own and stable); all share one signal that aborts when
 * the run_code call's signal does or when the run ends; `close()` returns once all have settled.
 *
 * Parking (DESIGN.md §7.2): a sub-call that parks is not answered; neither is any call made after
 * it, and none of them runs. Once the calls already running have settled, the run is halted
 * (`onHalt`) and `halted` says why. On a continuation, `replay` answers the calls that settled
 * before, by order, without running them; a call that differs from its record (tool or canonical
 * arguments) halts the run as diverged, and nothing further runs.
 *
 * Host memory: the arguments and replies of one run's sub-calls live on the host, outside the
 * sandbox's memory limit (a park keeps them all). Together they may come to at most
 * `HELD_PER_MEMORY_LIMIT` times `memoryLimitBytes` characters of JSON text; the call that would
 * pass that gets no answer, and the run is halted as out of memory once no call is running.
 */
import { APPROVAL_PARKED, TOOL_DENIED, type ContentBlock, type ExecuteOptions, type ToolCall, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { CODE_MEMORY_LIMIT, NOT_CALLABLE, RUN_CODE_DIVERGED, TOO_MANY_CALLS } from './codes.js'
import { canonicalArgs, type ReplayedCall } from './replay.js'

/** `ctx.tools.execute`. */
export type Execute = (call: ToolCall, options: ExecuteOptions) => Promise<ToolExecutionResult>

/** How many times `memoryLimitBytes` the arguments and replies of one run's sub-calls may hold on the host. */
export const HELD_PER_MEMORY_LIMIT = 4

/** The limits on one run's sub-calls. */
export interface CallLimits {
  maxCalls: number
  maxParallelCalls: number
  /** The sandbox's memory limit; the sub-calls' arguments and replies get `HELD_PER_MEMORY_LIMIT` times as much. */
  memoryLimitBytes: number
}

/** How the run is to continue after a park or a divergence. */
export interface Continuing {
  /** The replies of the calls that settled in an earlier run of this call, by order. */
  replay?: ReadonlyMap<number, ReplayedCall>
  /** Whether a parked sub-call can park this call (its session keeps state and approvals). */
  canPark: boolean
  /** Called once when the run must stop: a call parked or diverged, and none is running any more. */
  onHalt(): void
}

/** Why the run was halted: the code the run_code call ends with, and its message. */
export interface Halted {
  code: typeof APPROVAL_PARKED | typeof RUN_CODE_DIVERGED | typeof CODE_MEMORY_LIMIT
  message: string
}

export class SubCalls {
  readonly #execute: Execute
  readonly #exec: ToolExec
  readonly #callable: readonly string[]
  readonly #limits: CallLimits
  readonly #continuing: Continuing
  readonly #controller = new AbortController()
  readonly #settling = new Set<Promise<string>>()
  readonly #waiting: Array<() => void> = []
  readonly #held: Array<(envelope: string) => void> = []
  readonly #unlink: () => void
  #made = 0
  #running = 0
  /** Characters of arguments and replies this run's sub-calls have brought to the host so far. */
  #carried = 0
  #halted: Halted | undefined
  #haltSent = false

  /** Every call that ran, in the order they settled: `{ id, name, code? }` (no code: a success). */
  readonly ran: Array<{ id: string, name: string, code?: string }> = []
  /** Every call that has its reply (ran or replayed), in the order they settled: what a park keeps (kept only when the run can park). */
  readonly settled: ReplayedCall[] = []
  /** The orders of the replayed calls the code asked for again. */
  readonly #replayed = new Set<number>()

  /** `exec` is the run_code call; its signal is read once, here (the one its body runs under). */
  constructor(execute: Execute, exec: ToolExec, callable: readonly string[], limits: CallLimits, continuing: Continuing) {
    this.#execute = execute
    this.#exec = exec
    this.#callable = callable
    this.#limits = limits
    this.#continuing = continuing
    const parent = exec.signal
    const onAbort = () => this.#controller.abort(parent.reason)
    if (parent.aborted) onAbort()
    else parent.addEventListener('abort', onAbort, { once: true })
    this.#unlink = () => parent.removeEventListener('abort', onAbort)
  }

  /** The signal every sub-call runs under. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** Why the run was halted, once it was. */
  get halted(): Halted | undefined {
    return this.#halted
  }

  /** The recorded calls the code did not ask for again (by order): a run that ended without them diverged. */
  get unreplayed(): ReplayedCall[] {
    return [...this.#continuing.replay?.values() ?? []].filter((call) => !this.#replayed.has(call.n))
  }

  /** Runs `name` with `args` (JSON text); resolves to the reply envelope (JSON text). Never rejects. */
  call(name: string, args: string): Promise<string> {
    if (this.#halted) return this.#unanswered()
    const settling = this.#call(name, args).catch((error: unknown) =>
      refusal(`Error: the call of ${name} failed in run_code: ${String(error)}`, 'PIPELINE_FAILED'))
    this.#settling.add(settling)
    void settling.then(() => this.#settling.delete(settling))
    return settling
  }

  /** Aborts the sub-calls still running (the run is over) and resolves once every one has settled. */
  async close(reason: unknown = new Error('run_code ended before this call finished')): Promise<void> {
    this.#unlink()
    if (!this.#controller.signal.aborted) this.#controller.abort(reason)
    for (const wake of this.#waiting.splice(0)) wake()
    const over = refusal('Error: tool call aborted before dispatch', 'ABORTED_BEFORE_DISPATCH')
    for (const answer of this.#held.splice(0)) answer(over)
    await Promise.all([...this.#settling])
  }

  async #call(name: string, args: string): Promise<string> {
    if (!this.#callable.includes(name)) {
      const listed = this.#callable.length ? this.#callable.join(', ') : '(none)'
      return refusal(`Error: tools.${name} is not a tool run_code can call; callable tools: ${listed}`, NOT_CALLABLE)
    }
    if (this.#made >= this.#limits.maxCalls) {
      return refusal(`Error: run_code allows at most ${this.#limits.maxCalls} tool calls per run; do more per call or split the work`, TOO_MANY_CALLS)
    }
    const n = ++this.#made
    const id = `${this.#exec.id}.${n}`
    if (!this.#carry(args.length)) return this.#tooMuch()
    const canonical = canonicalArgs(args)
    const recorded = this.#continuing.replay?.get(n)
    if (recorded) return this.#replay(recorded, name, canonical)
    await this.#slot()
    if (this.#halted) {
      this.#free()
      this.#haltIfIdle()
      return this.#unanswered()
    }
    if (this.signal.aborted) {
      this.#free()
      return refusal('Error: tool call aborted before dispatch', 'ABORTED_BEFORE_DISPATCH')
    }
    try {
      const result = await this.#execute({ id, name, arguments: args }, {
        signal: this.signal,
        parent: this.#exec.id,
        turn: this.#exec.turn,
        agent: this.#exec.agent,
        session: this.#exec.session,
        onProgress: (info) => this.#exec.progress(info),
      })
      const code = result.isError ? result.error.info?.code ?? 'TOOL_FAILED' : undefined
      this.ran.push(code === undefined ? { id, name } : { id, name, code })
      if (code === APPROVAL_PARKED) {
        if (this.#continuing.canPark) {
          this.#halt({ code: APPROVAL_PARKED, message: `run_code's call ${id} (tools.${name}) awaits approval; when it is answered, the code runs again from the start` })
          return this.#unanswered()
        }
        return refusal(`Error: tools.${name} needs approval, and run_code cannot wait for it here (its session keeps no state)`, TOOL_DENIED)
      }
      const reply = result.isError ? refusal(textOf(result.content), code) : JSON.stringify({ ok: true, value: result.value })
      // Past the cap the reply is not given; a run already halted (parked) still keeps it, so its continuation does not run the call again.
      if (!this.#carry(reply.length) && !this.#halted) return this.#tooMuch()
      this.#keep({ n, tool: name, args: canonical, reply })
      return reply
    } finally {
      this.#free()
      this.#haltIfIdle()
    }
  }

  /** A call the earlier run already settled: its reply again when it is the same call, else the run diverged. */
  #replay(recorded: ReplayedCall, name: string, canonical: string): Promise<string> | string {
    this.#replayed.add(recorded.n)
    if (recorded.tool === name && recorded.args === canonical) {
      if (!this.#carry(recorded.reply.length)) return this.#tooMuch()
      this.#keep(recorded)
      return recorded.reply
    }
    this.#halt({
      code: RUN_CODE_DIVERGED,
      message: `the code ran again after an approval and asked something else at call ${recorded.n}: it first called ` +
        `tools.${recorded.tool}(${clip(recorded.args)}), now tools.${name}(${clip(canonical)}); nothing further ran. ` +
        'The code must ask the same things each time it runs (its clock and random numbers already are the same)',
    })
    this.#haltIfIdle()
    return this.#unanswered()
  }

  /** Counts `chars` more held on the host; whether the run is still within its cap. */
  #carry(chars: number): boolean {
    this.#carried += chars
    return this.#carried <= HELD_PER_MEMORY_LIMIT * this.#limits.memoryLimitBytes
  }

  /** Halts the run for holding too much on the host; this call gets no answer. */
  #tooMuch(): Promise<string> {
    const cap = HELD_PER_MEMORY_LIMIT * this.#limits.memoryLimitBytes
    this.#halt({
      code: CODE_MEMORY_LIMIT,
      message: `the code's tool calls passed more than ${cap} characters of arguments and replies in one run ` +
        `(${HELD_PER_MEMORY_LIMIT} times the memory limit of ${this.#limits.memoryLimitBytes} bytes), and the run was stopped; ` +
        'pass less data per call, avoid sending the same data again, or split the work over several runs',
    })
    this.#haltIfIdle()
    return this.#unanswered()
  }

  /** Keeps a settled call for a park; only a run that can park needs them. */
  #keep(call: ReplayedCall): void {
    if (this.#continuing.canPark) this.settled.push(call)
  }

  /** Stops answering: the first reason stands. */
  #halt(halted: Halted): void {
    this.#halted ??= halted
    for (const wake of this.#waiting.splice(0)) wake()
  }

  /** Halts the run once it was halted and no call is running. */
  #haltIfIdle(): void {
    if (!this.#halted || this.#running > 0 || this.#haltSent) return
    this.#haltSent = true
    this.#continuing.onHalt()
  }

  /** A reply that comes only when the run is over (the code never sees it). */
  #unanswered(): Promise<string> {
    return new Promise((resolve) => this.#held.push(resolve))
  }

  /** Waits for one of the `maxParallelCalls` places (at once when the run is over). */
  async #slot(): Promise<void> {
    if (this.#running < this.#limits.maxParallelCalls || this.signal.aborted || this.#halted) {
      this.#running++
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
    this.#running++
  }

  #free(): void {
    this.#running--
    this.#waiting.shift()?.()
  }
}

/** The reply envelope of a failed call: `text` becomes the message of the error thrown in the code. */
function refusal(text: string, code: string | undefined): string {
  return JSON.stringify({ ok: false, text, code: code ?? null })
}

/** The text the model would see: the text blocks, one per line (an image by its type). */
function textOf(content: readonly ContentBlock[]): string {
  return content.map((block) => block.type === 'text' ? block.text : `[image ${block.mimeType}]`).join('\n')
}

/** At most 200 characters of `text`. */
function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}... (${text.length - 200} more characters)`
}
