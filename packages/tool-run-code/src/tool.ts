/**
 * The `run_code` tool. Its body takes a sandbox thread, runs the code there with the
 * configured limits, bridges the code's sub-calls to the pipeline, and returns the code's
 * return value (or throws a coded error). Before it returns, every sub-call has settled and
 * the thread is either back in the pool, clean, or terminated.
 */
import type { Context } from 'cordis'
import { APPROVAL_PARKED, CodedError, defineTool, type Json, type ToolDefinition } from '@rein/kernel'
import { SubCalls } from './calls.js'
import { RUN_CODE_DIVERGED } from './codes.js'
import { DEFAULT_STACK_BYTES, type Config } from './config.js'
import { callableTools, describeRunCode, RUN_CODE } from './description.js'
import { valueOf } from './outcome.js'
import type { SandboxPool } from './pool.js'
import { keepReplay, readReplay, seedOf } from './replay.js'
import { runOnThread } from './run.js'

export interface RunCodeArgs {
  code: string
}

/** The tool for `ctx`'s registry, running on `pool`'s threads. */
export function runCodeTool(ctx: Context, config: Config, pool: SandboxPool): ToolDefinition<RunCodeArgs, Json> {
  const callable = () => callableTools(ctx.tools.specs(), config.tools)
  const description = liveText(() => describeRunCode(callable(), config, (name) => ctx.tools.get(name)))
  return defineTool<RunCodeArgs, Json>({
    name: RUN_CODE,
    // Read whenever the registry lists its tools, so tools registered after run_code appear.
    get description() {
      return description()
    },
    parameters: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          minLength: 1,
          description: 'The body of an async JavaScript function: await tools.<name>(args), then return a JSON value.',
        },
      },
      required: ['code'],
      additionalProperties: false,
    },
    // Exclusive: the scheduler cannot see which tools the code will call. Its sub-calls go to
    // the pipeline directly and run in parallel among themselves, outside the batch's order.
    isConcurrencySafe: () => false,
    async execute({ code }, exec) {
      const signal = exec.signal
      const names = callable().map((spec) => spec.name)
      const state = exec.session?.state
      // A continuation of a call that parked: the same clock, and the replies it already had.
      const record = readReplay(state, exec)
      const clock = record?.clock ?? Date.now()
      const run = new AbortController()
      const stopRun = () => run.abort(signal.reason)
      if (signal.aborted) stopRun()
      else signal.addEventListener('abort', stopRun, { once: true })
      const thread = await pool.acquire(signal)
      const calls = new SubCalls((call, options) => ctx.tools.execute(call, options), exec, names, config, {
        replay: record && new Map(record.calls.map((call) => [call.n, call])),
        canPark: state !== undefined && exec.session?.approvals !== undefined,
        onHalt: () => run.abort(new Error('run_code halted')),
      })
      let healthy = false
      try {
        const ended = await runOnThread(thread, {
          code,
          tools: names,
          limits: {
            memoryLimitBytes: config.memoryLimitBytes,
            maxStackBytes: config.maxStackBytes ?? DEFAULT_STACK_BYTES,
            deadline: Date.now() + config.maxRunMs,
          },
          fixed: { clock, seed: seedOf(exec.idempotencyKey) },
        }, (name, args) => calls.call(name, args), run.signal)
        healthy = ended.healthy
        const halted = calls.halted
        if (halted?.code === APPROVAL_PARKED) keepReplay(state!, exec, { clock, calls: calls.settled })
        if (halted) throw new CodedError(halted.message, halted.code)
        const missed = ended.stoppedBy === undefined ? calls.unreplayed[0] : undefined
        if (missed) {
          throw new CodedError(`the code ran again after an approval and ended without making call ${missed.n} ` +
            `(tools.${missed.tool}), which it made the first time; it must ask the same things each time it runs`, RUN_CODE_DIVERGED)
        }
        return valueOf(ended, signal, config)
      } finally {
        signal.removeEventListener('abort', stopRun)
        await calls.close()
        pool.release(thread, healthy)
        // Recorded with this call's result (`meta.calls`, kept in the session's tool/result entry):
        // which sub-calls ran under it, by id (`<this id>.<n>`), tool and outcome.
        if (calls.ran.length > 0) exec.meta.calls = calls.ran
      }
    },
  })
}

/**
 * `build()` on every read, except a read made while building: building the description lists
 * the registry's tools, which reads this description again; that inner read gets the last text.
 */
function liveText(build: () => string): () => string {
  let building = false
  let last = ''
  return () => {
    if (building) return last
    building = true
    try {
      last = build()
    } finally {
      building = false
    }
    return last
  }
}
