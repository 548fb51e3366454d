// @ts-check
/**
 * One run of the model's code in a fresh QuickJS runtime and context (sandbox thread side).
 * Guarantees: the code sees only the language, `tools` and nothing of the host; its heap and
 * stack are capped; the interrupt handler stops it once the stop flag is set or the deadline
 * passes, even inside a busy loop; it ends exactly once, with one `Outcome`, after disposing
 * every handle, and reports whether QuickJS came through clean enough to reuse the thread.
 * Nothing the host hands QuickJS is written before the memory for it was found: a reply or a
 * call that no longer fits ends the run as out of memory. A run during which the memory
 * refused to grow is never reported healthy, so its thread is not reused.
 */
import { PRELUDE } from './prelude.mjs'

/**
 * Room kept beyond a reply's own bytes for the small allocations that placing it and running
 * on take on the host side (handles, argument lists, the promise's jobs).
 */
const HEADROOM_BYTES = 64 * 1024
/** How a run that no longer fits in its memory ends. */
const OUT_OF_MEMORY = /** @type {const} */ ({ kind: 'memory', message: 'out of memory' })

/** @typedef {import('quickjs-emscripten').QuickJSWASMModule} QuickJSWASMModule */
/** @typedef {import('quickjs-emscripten').QuickJSRuntime} QuickJSRuntime */
/** @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext */
/** @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle */
/** @typedef {import('quickjs-emscripten').QuickJSDeferredPromise} QuickJSDeferredPromise */
/** @typedef {import('./protocol.js').Outcome} Outcome */
/** @typedef {import('./protocol.js').Limits} Limits */

/**
 * What a run needs from its thread.
 * @typedef {object} RunHost
 * @property {() => boolean} stopRequested  the shared stop flag, read inside the interrupt handler
 * @property {() => number} memoryRefusals  how many times the capped memory refused to grow, or an allocation failed, so far
 * @property {(bytes: number) => boolean} fits  whether `bytes` can be allocated in one piece now (nothing stays allocated)
 * @property {(id: number, name: string, args: string) => void} call  forwards a sub-call to the host
 * @property {(outcome: Outcome, healthy: boolean) => void} done  called exactly once
 */

export class Run {
  /** @type {QuickJSRuntime | undefined} */ #runtime
  /** @type {QuickJSContext | undefined} */ #context
  /** @type {QuickJSHandle | undefined} */ #promise
  /** @type {QuickJSHandle | undefined} */ #finish
  /** @type {QuickJSHandle | undefined} */ #describe
  /** @type {Map<number, QuickJSDeferredPromise>} */ #pending = new Map()
  #nextId = 1
  #interrupted = false
  /** The host could not hand QuickJS something for lack of memory: the run ends as out of memory. */
  #exhausted = false
  #over = false
  #refusalsBefore = 0

  /**
   * @param {QuickJSWASMModule} module
   * @param {{ code: string, tools: string[], limits: Limits, fixed: import('./protocol.js').Fixed }} request
   * @param {RunHost} host
   */
  constructor(module, request, host) {
    this.module = module
    this.request = request
    this.host = host
  }

  /** Sets up the context, evaluates the code and runs it as far as it goes without the host. */
  start() {
    this.#refusalsBefore = this.host.memoryRefusals()
    this.#guard(() => {
      const { limits, code, tools } = this.request
      const runtime = this.#runtime = this.module.newRuntime()
      runtime.setMemoryLimit(limits.memoryLimitBytes)
      runtime.setMaxStackSize(limits.maxStackBytes)
      runtime.setInterruptHandler(() => {
        if (this.#exhausted || this.host.stopRequested() || Date.now() > limits.deadline) this.#interrupted = true
        return this.#interrupted
      })
      const context = this.#context = runtime.newContext()
      this.#install(context, tools, this.request.fixed)
      const evaluated = context.evalCode(`(async () => {${code}\n})()`, 'run_code.js', { type: 'global' })
      if (evaluated.error) return this.#failed(evaluated.error, 'threw')
      this.#promise = evaluated.value
      this.#pump()
    })
  }

  /** The host's answer to sub-call `id`: resolve its promise in the code, then run on. */
  reply(/** @type {number} */ id, /** @type {string} */ envelope) {
    const deferred = this.#pending.get(id)
    if (!deferred || this.#over) return
    // Checked while the promise is still pending, so that ending the run disposes it.
    if (!this.host.fits(placedBytes(envelope) + HEADROOM_BYTES)) {
      this.#exhausted = true
      return this.#end(OUT_OF_MEMORY)
    }
    this.#pending.delete(id)
    this.#guard(() => {
      const context = /** @type {QuickJSContext} */ (this.#context)
      const text = context.newString(envelope)
      deferred.resolve(text)
      text.dispose()
      deferred.dispose()
      this.#pump()
    })
  }

  /** Ends the run at once (the host set the stop flag and wants the thread back). */
  stop() {
    this.#end({ kind: 'interrupted' })
  }

  /** Defines `tools`, the fixed clock and random numbers through the prelude and keeps its `finish` and `describe` functions. */
  #install(/** @type {QuickJSContext} */ context, /** @type {string[]} */ tools, /** @type {import('./protocol.js').Fixed} */ fixed) {
    const setup = context.unwrapResult(context.evalCode(PRELUDE, 'prelude.js', { type: 'global' }))
    const call = context.newFunction('call', (name, args) => {
      // Without room for its promise, the call is not made; the interrupt handler ends the run.
      if (!this.host.fits(HEADROOM_BYTES)) {
        this.#exhausted = true
        return context.undefined
      }
      const id = this.#nextId++
      const deferred = context.newPromise()
      this.#pending.set(id, deferred)
      this.host.call(id, context.getString(name), context.getString(args))
      return deferred.handle
    })
    const names = context.newString(JSON.stringify(tools))
    const fixedJson = context.newString(JSON.stringify(fixed))
    const made = context.callFunction(setup, context.undefined, call, names, fixedJson)
    setup.dispose()
    call.dispose()
    names.dispose()
    fixedJson.dispose()
    const helpers = context.unwrapResult(made)
    this.#finish = context.getProp(helpers, 'finish')
    this.#describe = context.getProp(helpers, 'describe')
    helpers.dispose()
  }

  /** Runs every pending job, then ends the run if its promise has settled or can never settle. */
  #pump() {
    const runtime = /** @type {QuickJSRuntime} */ (this.#runtime)
    const context = /** @type {QuickJSContext} */ (this.#context)
    const jobs = runtime.executePendingJobs()
    if (jobs.error) return this.#failed(jobs.error, 'threw')
    const state = context.getPromiseState(/** @type {QuickJSHandle} */ (this.#promise))
    if (state.type === 'pending') {
      if (this.#pending.size === 0) this.#end({ kind: 'stalled' })
      return
    }
    if (state.type === 'rejected') return this.#failed(state.error, 'threw')
    const made = context.callFunction(/** @type {QuickJSHandle} */ (this.#finish), context.undefined, state.value)
    state.value.dispose()
    if (made.error) return this.#failed(made.error, 'output')
    const json = context.getString(made.value)
    made.value.dispose()
    this.#end({ kind: 'value', json })
  }

  /**
   * Ends the run for the exception `error` (disposed here): an interruption, running out of
   * memory, or else `kind` with the exception described by the prelude.
   * @param {QuickJSHandle} error
   * @param {'threw' | 'output'} kind
   */
  #failed(error, kind) {
    const context = /** @type {QuickJSContext} */ (this.#context)
    if (this.#exhausted) {
      error.dispose()
      return this.#end(OUT_OF_MEMORY)
    }
    if (this.#interrupted) {
      error.dispose()
      return this.#end({ kind: 'interrupted' })
    }
    if (this.#outOfMemory(context, error)) {
      error.dispose()
      return this.#end({ kind: 'memory', message: 'out of memory' })
    }
    const described = this.#describe
      ? context.callFunction(this.#describe, context.undefined, error)
      : undefined
    error.dispose()
    let text = 'an exception that cannot be described'
    if (described?.error) {
      if (this.#interrupted) return this.#end({ kind: 'interrupted' }, described.error)
      described.error.dispose()
    } else if (described) {
      text = context.getString(described.value)
      described.value.dispose()
    }
    this.#end({ kind, message: text })
  }

  /**
   * Whether `error` means the code ran out of memory: QuickJS's own error, or the `null` it
   * throws when not even that error fits, after the memory refused to grow during this run.
   */
  #outOfMemory(/** @type {QuickJSContext} */ context, /** @type {QuickJSHandle} */ error) {
    if (context.typeof(error) !== 'object') return false
    if (context.sameValue(error, context.null)) return this.#refused()
    const read = (/** @type {string} */ key) => {
      const value = context.getProp(error, key)
      const text = context.typeof(value) === 'string' ? context.getString(value) : undefined
      value.dispose()
      return text
    }
    return read('name') === 'InternalError' && read('message') === 'out of memory'
  }

  /**
   * Disposes everything (and `extra`), then reports `outcome` once. A failure to dispose means
   * QuickJS's heap is not clean: the thread is reported unhealthy and will not run again.
   * @param {Outcome} outcome
   * @param {QuickJSHandle} [extra]
   */
  #end(outcome, extra) {
    if (this.#over) return
    this.#over = true
    if (this.#exhausted) outcome = OUT_OF_MEMORY
    // A run that reached the memory's cap may have left QuickJS's heap damaged or full (a
    // failed allocation deep in quickjs-emscripten goes unchecked): the thread is retired.
    let healthy = outcome.kind !== 'memory' && !this.#refused()
    try {
      extra?.dispose()
      for (const deferred of this.#pending.values()) deferred.dispose()
      this.#pending.clear()
      for (const handle of [this.#promise, this.#finish, this.#describe]) if (handle?.alive) handle.dispose()
      this.#context?.dispose()
      this.#runtime?.dispose()
    } catch {
      healthy = false
    }
    this.host.done(outcome, healthy)
  }

  /** Whether the memory refused to grow, or an allocation failed, during this run. */
  #refused() {
    return this.host.memoryRefusals() > this.#refusalsBefore
  }

  /**
   * Runs `step`. A host-level failure (a WebAssembly trap, the thread's own stack, a QuickJS
   * call that failed) ends the run without cleaning up, as interrupted, out of memory or
   * crashed; the thread is not reused.
   */
  #guard(/** @type {() => void} */ step) {
    try {
      step()
    } catch (error) {
      if (this.#over) return
      this.#over = true
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      this.host.done(this.#exhausted ? OUT_OF_MEMORY
        : this.#interrupted ? { kind: 'interrupted' }
          : this.#refused() ? OUT_OF_MEMORY
            : { kind: 'crashed', message }, false)
    }
  }
}

/**
 * The most bytes placing `text` in QuickJS takes at once: its UTF-8 copy with a terminating
 * zero, and the QuickJS string made from it (one byte per character for ASCII, else at most two).
 */
function placedBytes(/** @type {string} */ text) {
  const utf8 = Buffer.byteLength(text, 'utf8')
  return utf8 + 1 + (utf8 === text.length ? 1 : 2) * text.length
}
