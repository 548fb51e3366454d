/**
 * `rein submit --session <id> "task"`: adds a run to the queue for the workers (`rein worker`)
 * and, unless `--no-wait`, shows its progress live and prints its final answer. Ctrl-C stops
 * waiting, not the run (`rein cancel` does that). The exit code is the run's, as for `rein run`.
 */
import { stringOption, UsageError, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { interrupts, println } from '../io.js'
import { redisUrl } from './worker.js'

export const submit: Command = {
  name: 'submit',
  summary: 'add an agent run to the Redis queue for the workers, and follow it',
  usage: 'rein submit [-c rein.yaml] --session <id> [--no-wait] [--redis <url>] [--queue <name>] "task"',
  help: `
Adds the task as a run of the session to the queue that rein worker processes take runs
from, then shows the run's calls live as its worker reports them and prints the final answer.
A session has one run at a time: a second submit while one is queued or running is refused.
Ctrl-C stops waiting; the run goes on (rein cancel --session <id> cancels it).

Options:
  -c, --config <file>  accepted so that a rein run command line works unchanged; the run uses
                       the harness the workers were started with
  --session <id>       the session the run adds to (created on first use)
  --no-wait            print the run's job id and return once it is queued
  --redis <url>        the queue's Redis (default: REIN_REDIS_URL)
  --queue <name>       the queue (default runs)`,
  options: {
    config: { type: 'string', short: 'c' },
    session: { type: 'string' },
    'no-wait': { type: 'boolean' },
    redis: { type: 'string' },
    queue: { type: 'string' },
  },
  positionals: { min: 1, max: Infinity },
  async run(args, io) {
    const task = args.positionals.join(' ').trim()
    if (task === '') throw new UsageError(`rein submit: the task is empty; usage: ${submit.usage}`)
    const session = stringOption(args, 'session')
    if (!session) throw new UsageError(`rein submit: --session <id> is required: the session the run adds to; usage: ${submit.usage}`)
    const redis = redisUrl(args, io, 'submit')
    const { createQueueClient, describeProgress } = await import('@rein/queue')
    const client = await createQueueClient({ redis, queue: stringOption(args, 'queue') })
    try {
      if (args.values['no-wait'] === true) {
        const { jobId } = await client.submit({ session, task, wait: false })
        println(io.stdout, jobId)
        return ExitCodes.OK
      }
      let stopWaiting!: () => void
      const interrupted = new Promise<undefined>((resolve) => { stopWaiting = () => resolve(undefined) })
      const unsubscribe = interrupts(io)(stopWaiting)
      try {
        const submitted = await Promise.race([
          client.submit({ session, task, onProgress: (event) => println(io.stderr, `  ${describeProgress(event)}`) }),
          interrupted,
        ])
        if (!submitted?.result) {
          println(io.stderr, `rein submit: stopped waiting; the run goes on (rein cancel --session ${JSON.stringify(session)} cancels it)`)
          return ExitCodes.INTERRUPTED
        }
        const { kind, text, error, worker } = submitted.result
        if (text) println(io.stdout, text)
        println(io.stderr, `rein submit: ${kind}${worker ? ` on ${worker}` : ''}${error ? `: ${error}` : ''}`)
        return kind === 'completed' ? ExitCodes.OK : kind === 'aborted' ? ExitCodes.INTERRUPTED : ExitCodes.FAILURE
      } finally {
        unsubscribe()
      }
    } finally {
      await client.close()
    }
  },
}
