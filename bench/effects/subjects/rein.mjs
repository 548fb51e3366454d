// One life of the rein rows: `node subjects/rein.mjs <dir> [--reconcile]`. The kernel and the
// agent loop on a JSONL session file (what `rein run` writes); `agent.run('go')` on a new
// session, `agent.run()` (continue) on one a killed life left behind. With --reconcile the
// `append` tool declares `reconcile`, which looks for the call's idempotency key in the ledger.
import { appendFileSync, existsSync } from 'node:fs'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, jsonlSession } from '@rein/agent'
import { appendEffect, done, filesOf, nextCall, readLedger, ready, recordAsk } from '../lib/workload.mjs'

const [dir, flag] = process.argv.slice(2)
const files = filesOf(dir)
const withReconcile = flag === '--reconcile'

/** The scripted model: the next item while results are missing, then 'done'. */
const provider = {
  async generate(request) {
    const texts = request.messages.filter((m) => m.role === 'tool').map((m) => m.content.map((block) => block.text ?? '').join(''))
    const call = nextCall(texts)
    if (call === undefined) return { role: 'assistant', content: 'done' }
    recordAsk(files, call.item)
    return { role: 'assistant', content: '', toolCalls: [{ id: call.id, name: 'append', arguments: JSON.stringify({ item: call.item }) }] }
  },
}

/** Did this call's effect happen? Its key in the ledger says so (DESIGN.md §7.3). */
async function reconcile({ arguments: args, idempotencyKey }) {
  const line = readLedger(files).find((entry) => entry.key === idempotencyKey)
  appendFileSync(files.reconciles, `${JSON.stringify({ item: args.item, ran: line !== undefined })}\n`)
  return line ? { ran: true, value: `appended item ${line.item}` } : { ran: false }
}

const ctx = new Context()
ctx.plugin(kernel)
await ctx.start()
ctx.tools.register(kernel.defineTool({
  name: 'append',
  description: 'Appends one line for the item to the ledger.',
  parameters: { type: 'object', properties: { item: { type: 'integer' } }, required: ['item'], additionalProperties: false },
  execute: (args, exec) => appendEffect(files, { item: args.item, call: exec.id, key: exec.idempotencyKey }),
  ...(withReconcile ? { reconcile } : {}),
}))

const resuming = existsSync(files.session)
const session = jsonlSession(files.session)
const agent = createAgent(ctx, { provider, session, maxTurns: 1_000 })
ready()
const outcome = resuming ? await agent.run() : await agent.run('Append items 1 to 100 to the ledger, one call each.')
await session.close()
done({ kind: outcome.kind })
// A run that did not complete on its own is a failure of the bench: say how it ended.
if (outcome.kind !== 'completed') console.error(`the run ended ${outcome.kind}${outcome.error ? `: ${outcome.error.stack ?? outcome.error.message}` : ''}`)
process.exit(outcome.kind === 'completed' ? 0 : 1)
