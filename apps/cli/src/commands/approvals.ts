/**
 * `rein approvals`: lists the calls of a session that wait for a person's answer (a run that
 * parked: `agent.approvals: park`, "decide later" at rein run's question, a fleet worker).
 * It only reads: a local session file is read without taking its writer lock.
 */
import type { Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { println } from '../io.js'
import { printJson } from '../json.js'

export const approvals: Command = {
  name: 'approvals',
  summary: 'list the calls of a session that wait for approval',
  usage: 'rein approvals [-c rein.yaml] [--session <path | id>] [--postgres <url>] [--json]',
  help: `
Lists the approval requests of a session that wait for an answer: each request's id, its
call, tool, reason and arguments, when it was asked (and when it expires), and the rein
approve command that answers it. Prints a line saying so when nothing waits.

Options:
  -c, --config <file>  without --session: the session is the file's "session" path, as for
                       rein run (default ./rein.yaml)
  --session <s>        a JSONL session file; with --postgres, the id of a fleet session
  --postgres <url>     the sessions' PostgreSQL (default: REIN_DATABASE_URL); names a fleet session
  --json               print { ok, session, approvals: [{ id, callId, tool, arguments, reason,
                       requestedAt, expiresAt, expired }] }`,
  options: {
    config: { type: 'string', short: 'c' },
    session: { type: 'string' },
    postgres: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const [{ openApprovalSession }, { printRequests, requestJson }, { pendingApprovals }] =
      await Promise.all([import('../approval/session-source.js'), import('../approval/pending.js'), import('@rein/agent')])
    const session = await openApprovalSession(args, io, 'approvals', { write: false })
    try {
      const pending = await pendingApprovals(session.store)
      if (args.values.json === true) {
        printJson(io, { ok: true, session: session.label, approvals: pending.map(requestJson) })
      } else if (pending.length === 0) {
        const empty = (await session.store.load()).length === 0
        println(io.stdout, `no approval requests wait in ${session.label}${empty ? ': it holds nothing (no run was made in it; is the session id right?)' : ''}`)
      } else {
        printRequests(io.stdout, `${pending.length} approval request${pending.length === 1 ? '' : 's'} wait${pending.length === 1 ? 's' : ''} in ${session.label}:`, pending, session.flags)
      }
      return ExitCodes.OK
    } finally {
      await session.close()
    }
  },
}
