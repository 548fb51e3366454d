/**
 * The fleet bench's `work` tool: the body of a `risky` call (a parked one) first tells the
 * worker's parent process, over the IPC channel `bench/fleet/worker.mjs` runs under, that it
 * started (`{ body, step, at }`, `at` in ms since the epoch with sub-ms precision, comparable
 * across processes of one machine); every body then waits `ms`.
 */
import { setTimeout as sleep } from 'node:timers/promises'

export const name = 'work'
export const inject = ['tools']

/** @param {any} ctx */
export function apply(ctx) {
  ctx.tools.register({
    name: 'work',
    description: 'One step of bench work: waits the given milliseconds.',
    parameters: {
      type: 'object',
      properties: { label: { type: 'string' }, step: { type: 'integer' }, ms: { type: 'integer' }, kind: { type: 'string' } },
      required: ['label', 'step', 'ms'],
    },
    isConcurrencySafe: () => true,
    /** @param {{ label: string, step: number, ms: number }} args @param {{ signal: AbortSignal }} exec */
    async execute(args, exec) {
      // Only the bodies whose start the bench times (the parked calls): the others would add IPC to the worker's CPU.
      if (args.kind === 'risky') process.send?.({ body: args.label, step: args.step, at: performance.timeOrigin + performance.now() })
      if (args.ms > 0) await sleep(args.ms, undefined, { signal: exec.signal })
      return { done: args.step }
    },
  })
}
