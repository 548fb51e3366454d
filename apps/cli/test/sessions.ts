/**
 * Session JSONL written by hand for the trace tests: a batch of calls with chosen start and
 * end times (or none) as `at`, as older sessions have them, and optionally the agent's
 * `timing` (body start and end, final) on the result, as @rein/agent writes it.
 */

/** One call of a scripted batch: its times are ms after the batch's origin. */
export interface CallSpec {
  id: string
  name?: string
  args?: Record<string, unknown>
  /** What ran, when it differs from what was asked (references substituted). */
  ran?: Record<string, unknown>
  start?: number
  /** When the result was committed (its `at`). */
  end?: number
  /** The body's run, written as `timing` with `final` (default: `end`). */
  body?: [number, number]
  final?: number
  code?: string
  mode?: 'parallel' | 'exclusive'
  text?: string
}

/**
 * The entries of a session with one batch per element of `turns`; omit times with `timed: false`.
 * Entries are in time order; at equal times a result comes before another call's start (a
 * barrier starts once the calls before it ended), and a call's own start before its result.
 */
export function sessionText(turns: CallSpec[][], options: { timed?: boolean, origin?: number } = {}): string {
  const timed = options.timed ?? true
  const entries: Record<string, unknown>[] = [{ type: 'message', message: { role: 'user', content: 'go' } }]
  let origin = options.origin ?? 1_700_000_000_000
  turns.forEach((calls, t) => {
    const turn = t + 1
    entries.push({ type: 'message', turn, message: { role: 'assistant', content: `batch ${turn}`, toolCalls: calls.map((c) => ({ id: c.id, name: c.name ?? 'tool', arguments: JSON.stringify(c.args ?? {}) })) } })
    const events = calls.flatMap((c, index) => [
      ...(c.start === undefined ? [] : [{ id: c.id, at: origin + c.start, order: 1, entry: { type: 'tool/call', turn, index, call: { id: c.id, name: c.name ?? 'tool', arguments: c.ran ?? c.args ?? {} }, ...(c.mode ? { mode: c.mode } : {}) } }]),
      ...(c.end === undefined ? [] : [{ id: c.id, at: origin + c.end, order: 0, entry: {
        type: 'tool/result', turn, index,
        message: { role: 'tool', toolCallId: c.id, content: [{ type: 'text', text: c.text ?? (c.code ? `Error: ${c.code}` : 'fine') }], isError: c.code !== undefined },
        ...(c.code ? { code: c.code } : {}),
        ...(timed && (c.body || c.final !== undefined) ? { timing: timingOf(c, origin) } : {}),
      } }]),
    ]).sort((a, b) => a.at - b.at || (a.id === b.id ? b.order - a.order : a.order - b.order))
    for (const { at, entry } of events) entries.push(timed ? { ...entry, at } : entry)
    entries.push({ type: 'turn/end', turn, outcome: 'committed' })
    origin += 10_000
  })
  return entries.map((entry, i) => `${JSON.stringify({ seq: i + 1, ...entry })}\n`).join('')
}

function timingOf(c: CallSpec, origin: number) {
  const body = c.body ? { bodyStartedAt: origin + c.body[0], bodyEndedAt: origin + c.body[1] } : {}
  return { startedAt: origin + (c.start ?? 0), ...body, finalAt: origin + (c.final ?? c.end ?? 0) }
}
