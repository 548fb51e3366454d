/**
 * What `rein approve` does (its options are in `commands/approve.ts`): checks the id and the
 * answer, writes it with `answerApproval` (which refuses, writing nothing, an id that is not
 * waiting), then says what is still pending and how the run goes on; for a fleet session it
 * queues the continuation once nothing is left to answer.
 */
import type { ApprovalAnswer } from '@rein/kernel'
import { stringOption, UsageError, type Parsed } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { println, type Io } from '../io.js'
import { printJson } from '../json.js'
import { queueModule } from '../queue-module.js'
import { safeLine } from '../terminal-text.js'
import { printRequests, requestJson } from './pending.js'
import { openApprovalSession, shellWord, type ApprovalSession } from './session-source.js'

/** What a request id may look like: the agent's are `apr_<uuid>`; anything else is not one. */
const ID = /^[A-Za-z0-9_-]{1,200}$/

/** Answers the request of the command line; resolves with the exit code. Throws `UsageError`. */
export async function answerRequest(args: Parsed, io: Io): Promise<number> {
  const id = args.positionals[0]!
  if (!ID.test(id)) {
    throw new UsageError(`rein approve: ${safeLine(JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id))} is not an approval request id ` +
      '(they look like apr_8f0c…; rein approvals lists those that wait)')
  }
  const answer = answerOf(args)
  const by = stringOption(args, 'by') ?? (io.env.USER || io.env.USERNAME || undefined)
  if (by !== undefined && (by.trim() === '' || by.length > 200 || /[\u0000-\u001f\u007f]/.test(by))) {
    throw new UsageError('rein approve: --by must name who answers: up to 200 characters, no control characters')
  }
  const { answerApproval, pendingApprovals } = await import('@rein/agent')
  const session = await openApprovalSession(args, io, 'approve', { write: true })
  let left
  try {
    try {
      await answerApproval(session.store, id, answer, by === undefined ? {} : { by })
    } catch (error) {
      const empty = await session.store.load().then((entries) => entries.length === 0, () => false)
      throw refused(error, session, empty)
    }
    left = (await pendingApprovals(session.store)).filter((request) => !request.expired)
  } finally {
    // A fleet session is let go before the continuation is queued: its worker needs the writer lock.
    await session.close()
  }
  const json = args.values.json === true
  const said = `${answer}${by === undefined ? '' : ` by ${by}`}`
  if (!json) println(io.stderr, `rein approve: ${id}: ${said}, written to ${session.label}`)
  let continuation: { jobId: string } | null = null
  if (left.length > 0) {
    if (!json) printRequests(io.stderr, `the run goes on once ${left.length === 1 ? 'this one is' : 'these are'} answered too:`, left, session.flags)
  } else if (session.fleet === undefined) {
    if (!json) println(io.stderr, `nothing else waits: continue the run with rein run --continue${flagText(session)}`)
  } else {
    continuation = await queueContinuation(args, io, session.fleet.id, json)
  }
  if (json) {
    printJson(io, { ok: true, id, answer, by: by ?? null, session: session.label, pending: left.map(requestJson), continuation })
  }
  return ExitCodes.OK
}

function answerOf(args: Parsed): ApprovalAnswer {
  if (args.values.deny === true && args.values['for-session'] === true) {
    throw new UsageError('rein approve: --deny and --for-session exclude each other: refuse the call, or allow it for the session')
  }
  if (args.values.deny === true) return 'deny'
  return args.values['for-session'] === true ? 'allow-session' : 'allow-once'
}

/** `answerApproval`'s refusal, said for the command line: which session, and how to see what waits. */
function refused(error: unknown, session: ApprovalSession, empty: boolean): Error {
  const message = error instanceof Error ? error.message.replace(/^answerApproval: /, '') : String(error)
  if (!/^(there is no|approval request)/.test(message)) return error instanceof Error ? error : new Error(message)
  const hint = empty ? `${session.label} holds nothing: no run was made in it (is the session id right?)` : `rein approvals${flagText(session)} lists what waits`
  return new Error(`${message.replace('in this session', `in ${session.label}`)} (${hint})`)
}

/** For a fleet session: queues the continuation when a Redis is named (`--redis`, REIN_REDIS_URL). */
async function queueContinuation(args: Parsed, io: Io, id: string, json: boolean): Promise<{ jobId: string } | null> {
  const redis = stringOption(args, 'redis') ?? io.env.REIN_REDIS_URL
  if (!redis) {
    if (!json) println(io.stderr, `nothing else waits; no Redis named, so no continuation is queued: rein submit --continue --session ${shellWord(id)} --redis <url> queues it`)
    return null
  }
  const { createQueueClient } = await queueModule()
  const client = await createQueueClient({ redis, queue: stringOption(args, 'queue') })
  try {
    if (!json) println(io.stderr, 'nothing else waits: queueing the continuation (after the session\'s run in progress, if one is running)')
    const { jobId } = await client.submit({ session: id, continue: true, wait: false })
    if (!json) println(io.stderr, `the run goes on as job ${jobId}, on whichever worker takes it`)
    if (!json) println(io.stdout, jobId)
    return { jobId }
  } finally {
    await client.close()
  }
}

/** The session's options as they go after a command: ` --session s.jsonl`, or nothing. */
function flagText(session: ApprovalSession): string {
  return session.flags.length === 0 ? '' : ` ${session.flags.map(shellWord).join(' ')}`
}
