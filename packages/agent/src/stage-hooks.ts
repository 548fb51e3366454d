/**
 * How the scheduler orders the stages of calls that the kernel runs in one piece.
 * `ctx.tools.execute` runs pre-execute, guards, the body and post-execute in a single call, so
 * the agent registers its own plugin with two outermost hooks and recognises its calls by
 * their per-call AbortSignal (every call the scheduler starts gets its own):
 *   tools/execute       entering it ends the call's pre stage (pre-execute, approval, guards);
 *                       leaving it frees the call's pool slot;
 *   tools/post-execute  waits for the call's post turn before the rest of the chain runs.
 * Calls the agent did not start (other agents, direct `ctx.tools.execute`) pass straight through.
 */
import type { Context, ForkScope } from 'cordis'
import type { ToolService } from '@rein/kernel'

/** The plugin name of every agent's stage hooks starts with this. */
export const PREFIX = 'agent:'

/** What the hooks do for one call of a batch. */
export interface StageCallbacks {
  /** The body's onion is starting: the pre stage is over. */
  bodyStart(): void
  /** The body's onion returned. */
  bodyEnd(): void
  /** Post-execute is about to run; resolves when it is this call's turn. */
  postTurn(): Promise<void>
}

/** The agent's stage hooks on one context. */
export class StageHooks {
  private readonly calls = new WeakMap<AbortSignal, StageCallbacks>()
  private fork: ForkScope | undefined

  readonly pluginName: string

  constructor(private readonly ctx: Context, agentName: string) {
    this.pluginName = `${PREFIX}${agentName}`
  }

  /** Routes the hooks of the call that runs with `signal` to `callbacks`. */
  bind(signal: AbortSignal, callbacks: StageCallbacks): void {
    this.calls.set(signal, callbacks)
  }

  /** The call that runs with `signal` is over: its hooks will not fire again. */
  unbind(signal: AbortSignal): void {
    this.calls.delete(signal)
  }

  /**
   * Makes sure both hooks are installed with nothing but other agents' stage hooks outside
   * them. Called before every batch: a plugin added later with `{ prepend: true }` would
   * otherwise wrap outside the stage order. (Agents' hooks only act on their own calls, so
   * their order among themselves does not matter.) `tools`: `ctx.tools`, or its methods bound
   * once for the batch (a lookup through `ctx` costs tens of microseconds).
   */
  ensureOutermost(tools: Pick<ToolService, 'chain'> = this.ctx.tools): void {
    const outermost = (chain: string[]) => {
      const at = chain.indexOf(this.pluginName)
      return at >= 0 && chain.slice(0, at).every((name) => name.startsWith(PREFIX))
    }
    if (this.fork && outermost(tools.chain('tools/execute')) && outermost(tools.chain('tools/post-execute'))) return
    this.fork?.dispose()
    const calls = this.calls
    this.fork = this.ctx.plugin({
      name: this.pluginName,
      inject: ['tools'],
      apply(ctx: Context) {
        // Plain functions, not `async` ones: a call that is not ours goes straight to `next()`
        // with no extra promise, and only our calls pay for the wrapping.
        ctx.on('tools/execute', (exec, next) => {
          const callbacks = calls.get(exec.signal)
          return callbacks ? aroundBody(callbacks, next) : next()
        }, { prepend: true })
        ctx.on('tools/post-execute', (exec, result, next) => {
          const callbacks = calls.get(exec.signal)
          return callbacks ? callbacks.postTurn().then(next) : next()
        }, { prepend: true })
      },
    })
    if (!outermost(tools.chain('tools/execute'))) {
      throw new Error(`the agent's stage hooks could not be installed on this context (is @rein/kernel loaded and started?)`)
    }
  }

  /** Removes the hooks. */
  dispose(): void {
    this.fork?.dispose()
    this.fork = undefined
  }
}

/** Runs the body's onion between the call's `bodyStart` and `bodyEnd`. */
async function aroundBody<T>(callbacks: StageCallbacks, next: () => Promise<T>): Promise<T> {
  callbacks.bodyStart()
  try {
    return await next()
  } finally {
    callbacks.bodyEnd()
  }
}
