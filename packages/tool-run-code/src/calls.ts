/**
 * The sub-calls of one run. Each `tools.<name>(args)` of the code becomes one
 * `ctx.tools.execute`, so every plugin applies to it as to a call of the model's own; it goes
 * straight to the pipeline, not through the agent's batch scheduler. Guarantees: only callable
 * tools run, at most `maxCalls` per run and `maxParallelCalls` at once; each carries
 * `parent` (the run_code call's id), `turn`, `agent` and `session` (so per-session plugins count
 * it, and its idempotency key is its own and stable); all share one signal that aborts when
 * the run_code call's signal does or when the run ends; `close()` returns once all have settled.
 */
import type { ContentBlock, ExecuteOptions, ToolCall, ToolExec, ToolExecutionResult } from '@rein/kernel'
import { NOT_CALLABLE, TOO_MANY_CALLS } from './codes.js'

/** `ctx.tools.execute`. */
export type Execute = (call: ToolCall, options: ExecuteOptions) => Promise<ToolExecutionResult>

/** The limits on one run's sub-calls. */
export interface CallLimits {
  maxCalls: number
  maxParallelCalls: number
}

export class SubCalls {
  readonly #execute: Execute
  readonly #exec: ToolExec
  readonly #callable: readonly string[]
  readonly #limits: CallLimits
  readonly #controller = new AbortController()
  readonly #settling = new Set<Promise<string>>()
  readonly #waiting: Array<() => void> = []
  readonly #unlink: () => void
  #made = 0
  #running = 0

  /** `exec` is the run_code call; its signal is read once, here (the one its body runs under). */
  constructor(execute: Execute, exec: ToolExec, callable: readonly string[], limits: CallLimits) {
    this.#execute = execute
    this.#exec = exec
    this.#callable = callable
    this.#limits = limits
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

  /** Runs `name` with `args` (JSON text); resolves to the reply envelope (JSON text). Never rejects. */
  call(name: string, args: string): Promise<string> {
    const settling = this.#call(name, args).catch((error: unknown) =>
      refusal(`Error: the call of ${name} failed in run_code: ${String(error)}`, 'PIPELINE_FAILED'))
    this.#settling.add(settling)
    void settling.then(() => this.#settling.delete(settling))
    return settling
  }

  /** Aborts the sub-calls still running (the run is over) and resolves once every one has settled. */
  /** Every call that ran, in the order they settled: `{ id, name, code? }` (no code: a success). */
  readonly ran: Array<{ id: string, name: string, code?: string }> = []

  async close(reason: unknown = new Error('run_code ended before this call finished')): Promise<void> {
    this.#unlink()
    if (!this.#controller.signal.aborted) this.#controller.abort(reason)
    for (const wake of this.#waiting.splice(0)) wake()
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
    const id = `${this.#exec.id}.${++this.#made}`
    await this.#slot()
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
      this.ran.push(result.isError ? { id, name, code: result.error.info?.code ?? 'TOOL_FAILED' } : { id, name })
      return result.isError
        ? refusal(textOf(result.content), result.error.info?.code)
        : JSON.stringify({ ok: true, value: result.value })
    } finally {
      this.#free()
    }
  }

  /** Waits for one of the `maxParallelCalls` places (at once when the run is over). */
  async #slot(): Promise<void> {
    if (this.#running < this.#limits.maxParallelCalls || this.signal.aborted) {
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
