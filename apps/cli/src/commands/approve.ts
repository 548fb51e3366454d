/**
 * `rein approve <id>`: writes a person's answer to one parked call into its session
 * (`answerApproval`); the run goes on when the session continues — `rein run --continue`
 * locally, and on a fleet (`--redis`) a continuation queued here, which any worker takes.
 */
import type { Command } from '../command.js'

export const approve: Command = {
  name: 'approve',
  summary: 'answer a call that waits for approval (allow once, for the session, or deny)',
  usage: 'rein approve <id> [--deny | --for-session] [--by <name>] [-c rein.yaml] [--session <path | id>] [--postgres <url>] [--redis <url>]',
  help: `
Writes the answer to the approval request <id> (rein approvals lists them) into its session:
allow the call once (default), allow it and later calls of the same rule for the rest of the
session (--for-session), or refuse it (--deny: the call ends TOOL_DENIED and the rest of its
batch runs). Nothing runs here: the answered call runs, through every plugin and guard again,
when the session continues. An unknown id, one already answered, replaced, settled or expired
is refused with exit 1 and nothing is written.

Locally the session is a JSONL file, and rein run --continue goes on with it once every
request is answered. On a fleet the session is in PostgreSQL; with --redis, once no request
is left unanswered, the continuation is queued and any rein worker takes it (a run of the
session still queued simply reads the answer; one running is waited for first).

Options:
  --deny                refuse the call
  --for-session         allow it, and what its rule asks about, for the rest of the session
  --by <name>           who answers, as the audit records it (default: $USER when set)
  -c, --config <file>   without --session: the session is the file's "session" path
                        (default ./rein.yaml)
  --session <s>         a JSONL session file; with --postgres or --redis, a fleet session id
  --postgres <url>      the sessions' PostgreSQL (default: REIN_DATABASE_URL)
  --redis <url>         the queue's Redis, where the continuation is queued (default, for a
                        fleet session: REIN_REDIS_URL; without either the answer is only
                        written, and rein submit --continue --session <id> queues it later)
  --queue <name>        the queue (default runs)
  --json                print { ok, id, answer, by, session, pending, continuation }`,
  options: {
    deny: { type: 'boolean' },
    'for-session': { type: 'boolean' },
    by: { type: 'string' },
    config: { type: 'string', short: 'c' },
    session: { type: 'string' },
    postgres: { type: 'string' },
    redis: { type: 'string' },
    queue: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    const { answerRequest } = await import('../approval/answer.js')
    return answerRequest(args, io)
  },
}
