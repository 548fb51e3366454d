/**
 * `rein cancel --session <id>`: cancels the session's run wherever it is. A queued run is
 * taken out of the queue; a running one is aborted by its worker and ends `aborted` (its
 * calls in flight settle first, within about a second), the session staying valid.
 */
import { stringOption, UsageError, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { queueModule } from '../queue-module.js'
import { println } from '../io.js'
import { redisUrl } from './worker.js'

export const cancel: Command = {
  name: 'cancel',
  summary: "cancel a session's queued or running run, on whichever worker has it",
  usage: 'rein cancel --session <id> [--redis <url>] [--queue <name>]',
  help: `
Cancels the run of the session: a queued run never starts; a running one is told to stop
through Redis, reaches its worker wherever it runs, and ends aborted once its calls in flight
have settled. Waits up to 5 s to say how it ended. Exit 1 when the session has no run.

Options:
  --session <id>   the session whose run to cancel
  --redis <url>    the queue's Redis (default: REIN_REDIS_URL)
  --queue <name>   the queue (default runs)`,
  options: {
    session: { type: 'string' },
    redis: { type: 'string' },
    queue: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const session = stringOption(args, 'session')
    if (!session) throw new UsageError(`rein cancel: --session <id> is required; usage: ${cancel.usage}`)
    const redis = redisUrl(args, io, 'cancel')
    const queue = await queueModule()
    const outcome = await queue.cancel({ redis, queue: stringOption(args, 'queue'), session })
    const name = JSON.stringify(session)
    switch (outcome.kind) {
      case 'not-found':
        println(io.stderr, `rein cancel: session ${name} has no run queued or running`)
        return ExitCodes.FAILURE
      case 'removed':
        println(io.stdout, `session ${name}: the run ${outcome.jobId} was still queued; it is removed and will not start`)
        return ExitCodes.OK
      case 'signalled':
        println(io.stdout, outcome.result
          ? `session ${name}: the run ${outcome.jobId} ended ${outcome.result.kind}`
          : `session ${name}: the worker of run ${outcome.jobId} was told; the run had not ended after 5 s`)
        return ExitCodes.OK
      default:
        return unknownOutcome(outcome)
    }
  },
}

function unknownOutcome(outcome: never): number {
  throw new Error(`rein cancel: unexpected outcome ${JSON.stringify(outcome)}`)
}
