/**
 * What the demo's scripted model says, turn by turn. Each batch is built to show one part
 * of the runtime: parallel reads around an exclusive write (a barrier) and a denied delete;
 * a flaky call that retry repairs, a call that outlives its deadline, an output too large
 * for the context (spilled) and a call fed by another's full value (`${c9.result}`); then a
 * cache hit and a read-back of the spilled output. `pace` scales every simulated latency.
 */
import type { AssistantMessage, GenerateRequest, ToolCall } from '@rein/kernel'
import type { ScriptStep } from '@rein/testing'

/** The user's task in the demo. */
export const DEMO_TASK = 'Read the four records, note what you found, check the billing service and its log, then report.'

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: JSON.stringify(args) })
const say = (content: string, toolCalls?: ToolCall[]): AssistantMessage =>
  toolCalls ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content }

/** The steps of the scripted model; `pace` 1 = the normal demo, 0.1 = ten times faster. */
export function demoScript(pace = 1): ScriptStep[] {
  const ms = (n: number) => Math.max(1, Math.round(n * pace))
  const status = { service: 'billing', latencyMs: ms(150) }
  return [
    say('Three lookups can run side by side. The note is a write, so it waits for them and runs alone (a barrier); ' +
      'then one more lookup, and a delete that the permission rules forbid.', [
      call('c1', 'lookup', { key: 'alpha', latencyMs: ms(400) }),
      call('c2', 'lookup', { key: 'beta', latencyMs: ms(250) }),
      call('c3', 'lookup', { key: 'gamma', latencyMs: ms(300) }),
      call('c4', 'write_note', { path: 'summary.md', text: 'alpha, beta and gamma read', latencyMs: ms(150) }),
      call('c5', 'lookup', { key: 'delta', latencyMs: ms(200) }),
      call('c6', 'delete_note', { path: 'summary.md' }),
    ]),
    say('Billing is flaky (its first answer fails, retry repeats it); the Q3 report is slower than its deadline; ' +
      'the log is too big for the context (spilled); count_lines gets the whole log through ${c9.result}.', [
      call('c7', 'fetch_status', status),
      call('c8', 'slow_report', { topic: 'q3', latencyMs: 30_000 }),
      call('c9', 'dump_log', { lines: 400, latencyMs: ms(100) }),
      call('c10', 'count_lines', { text: '${c9.result}' }),
    ]),
    (req: GenerateRequest) => say('The same status request again (served from the cache), and the first bytes of the spilled log.', [
      call('c11', 'fetch_status', status),
      ...readBack(req),
    ]),
    say('Done. Four records read and noted; the delete was refused; billing is healthy (one retry, then cached); ' +
      'the Q3 report timed out; the 400-line log was kept out of the context and read back in part.'),
  ]
}

/** A `read_spilled` call for the locator the model was shown in c9's preview (none if it was not spilled). */
function readBack(req: GenerateRequest): ToolCall[] {
  const preview = req.messages.find((m) => m.role === 'tool' && m.toolCallId === 'c9')
  const text = preview?.role === 'tool' ? preview.content.map((b) => (b.type === 'text' ? b.text : '')).join('') : ''
  const locator = /locator "([^"]+)"/.exec(text)?.[1]
  return locator ? [call('c12', 'read_spilled', { locator, offset: 0, limit: 240 })] : []
}
