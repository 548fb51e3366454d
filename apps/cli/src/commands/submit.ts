/**
 * `rein submit --session <id> "task"`: adds a run to the queue for the workers (`rein worker`)
 * and, unless `--no-wait`, shows its progress live and prints its final answer. Ctrl-C stops
 * waiting, not the run (`rein cancel` does that). The exit code is the run's, as for `rein run`,
 * except that a run cancelled by someone else exits 4 (130 is this process' own Ctrl-C). A run
 * that parks calls for approval lists them and exits 3; `--continue` (no task) queues the
 * continuation of a session whose requests were answered.
 */
import { access, constants } from 'node:fs/promises'
import { resolve } from 'node:path'
import { stringOption, UsageError, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { queueModule } from '../queue-module.js'
import { interrupts, println } from '../io.js'
import { redisUrl } from './worker.js'

export const submit: Command = {
  name: 'submit',
  summary: 'add an agent run to the Redis queue for the workers, and follow it',
  usage: 'rein submit [-c rein.yaml] --session <id> [--no-wait] [--redis <url>] [--queue <name>] ("task" | --continue)',
  help: `
Adds the task as a run of the session to the queue that rein worker processes take runs
from, then shows the run's calls live as its worker reports them and prints the final answer.
A session has one run at a time: a second submit while one is queued or running is refused.
Ctrl-C stops waiting; the run goes on (rein cancel --session <id> cancels it). A run cancelled
by rein cancel exits 4. Workers park calls that need approval: the run then lists them, with
the rein approve line for each, and exits 3; rein approve --redis queues the continuation
once they are answered (or rein submit --continue does, with no task).

Options:
  -c, --config <file>  must name a readable file when given, so that a rein run command line
                       works unchanged and a wrong path is caught; nothing else is read from it:
                       the run uses the harness the workers were started with (rein worker -c)
  --session <id>       the session the run adds to (created on first use)
  --continue           no task: the session goes on where it stopped (a turn parked for
                       approval, once answered)
  --no-wait            print the run's job id and return once it is queued
  --redis <url>        the queue's Redis (default: REIN_REDIS_URL)
  --queue <name>       the queue (default runs)`,
  options: {
    config: { type: 'string', short: 'c' },
    session: { type: 'string' },
    'no-wait': { type: 'boolean' },
    continue: { type: 'boolean' },
    redis: { type: 'string' },
    queue: { type: 'string' },
  },
  positionals: { min: 0, max: Infinity },
  async run(args, io) {
    const task = args.positionals.join(' ').trim()
    const goOn = args.values.continue === true
    if (goOn && args.positionals.length > 0) throw new UsageError(`rein submit: --continue takes no task: the session goes on as it stands; usage: ${submit.usage}`)
    if (!goOn && task === '') throw new UsageError(`rein submit: the task is empty; usage: ${submit.usage}`)
    const request = goOn ? { continue: true } : { task }
    const session = stringOption(args, 'session')
    if (!session) throw new UsageError(`rein submit: --session <id> is required: the session the run adds to; usage: ${submit.usage}`)
    const config = stringOption(args, 'config')
    if (config !== undefined) await readable(resolve(io.cwd, config))
    const redis = redisUrl(args, io, 'submit')
    const { createQueueClient, describeProgress } = await queueModule()
    const client = await createQueueClient({ redis, queue: stringOption(args, 'queue') })
    try {
      if (args.values['no-wait'] === true) {
        const { jobId } = await client.submit({ session, ...request, wait: false })
        println(io.stdout, jobId)
        return ExitCodes.OK
      }
      let stopWaiting!: () => void
      const interrupted = new Promise<undefined>((resolve) => { stopWaiting = () => resolve(undefined) })
      const unsubscribe = interrupts(io)(stopWaiting)
      try {
        const submitted = await Promise.race([
          client.submit({
            session, ...request,
            onProgress: (event) => { for (const line of describeProgress(event).split('\n')) println(io.stderr, `  ${line}`) },
          }),
          interrupted,
        ])
        if (!submitted?.result) {
          println(io.stderr, `rein submit: stopped waiting; the run goes on (rein cancel --session ${JSON.stringify(session)} cancels it)`)
          return ExitCodes.INTERRUPTED
        }
        const { kind, text, error, worker, approvals } = submitted.result
        if (text) {
          // The label goes with the progress (stderr), so stdout holds the answer alone for a script.
          println(io.stderr, 'answer:')
          println(io.stdout, text)
        }
        const cancelled = kind === 'aborted' ? ' (the run was cancelled)' : ''
        println(io.stderr, `rein submit: ${kind}${cancelled}${worker ? ` on ${worker}` : ''}${error ? `: ${error}` : ''}`)
        if (kind === 'awaiting-approval') {
          const { printRequests } = await import('../approval/pending.js')
          // The servers' URLs may hold passwords: the line names them only when the environment does not.
          const flags = ['--session', session,
            ...(io.env.REIN_REDIS_URL && stringOption(args, 'redis') === undefined ? [] : ['--redis', '<url>']),
            ...(io.env.REIN_DATABASE_URL ? [] : ['--postgres', '<url>'])]
          printRequests(io.stderr, 'waiting for approval (the worker is free; any worker goes on once these are answered):', approvals ?? [], flags)
          return ExitCodes.AWAITING_APPROVAL
        }
        return kind === 'completed' ? ExitCodes.OK : kind === 'aborted' ? ExitCodes.CANCELLED : ExitCodes.FAILURE
      } finally {
        unsubscribe()
      }
    } finally {
      await client.close()
    }
  },
}

/** Refuses a `-c` file that cannot be read, naming it: a typo in the path is not silently ignored. */
async function readable(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK)
  } catch {
    throw new UsageError(`rein submit: -c ${file}: no such readable file; the run uses the harness its worker loaded (rein worker -c <file>), so -c may also be left out`)
  }
}
