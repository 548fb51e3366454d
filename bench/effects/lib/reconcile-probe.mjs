// Whether this build of rein honours `defineTool({ reconcile })` (DESIGN.md §7.3): a memory
// session holding a call logged as started and without a result is continued, and the probe
// tool's `reconcile` must be asked about it. A build that ignores the option reports the call
// TOOL_OUTCOME_UNKNOWN without asking.
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, memorySession } from '@rein/agent'

/** True when a resumed run asks the tool's `reconcile` about its interrupted call. */
export async function reconcileSupported() {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  let asked = false
  ctx.tools.register(kernel.defineTool({
    name: 'probe', description: 'probe', parameters: { type: 'object' },
    execute: () => 'ran',
    reconcile: () => { asked = true; return { ran: true, value: 'ran' } },
  }))
  const session = memorySession()
  const call = { id: 'probe_1', name: 'probe', arguments: '{}' }
  await session.append({ type: 'message', message: { role: 'user', content: 'go' } })
  await session.append({ type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [call] } })
  await session.append({ type: 'tool/call', turn: 1, index: 0, call: { id: call.id, name: call.name, arguments: {} } })
  const provider = { generate: async () => ({ role: 'assistant', content: 'done' }) }
  const outcome = await createAgent(ctx, { provider, session }).run()
  if (outcome.kind !== 'completed') throw new Error(`the reconcile probe's run ended ${outcome.kind}: ${outcome.error?.message ?? ''}`)
  return asked
}
