/**
 * Reads a session JSONL into the calls a timeline draws: for every tool call of every
 * assistant message, what was asked (the model's arguments), what ran (the logged
 * arguments), when it started and ended, its outcome, a preview of its result, and the calls
 * it depended on (`${id.result...}` references and `$depends_on`, from whichever arguments
 * still hold them). Times come from the agent's `timing` on results (start, body start and
 * end, final) and `at` on entries; older sessions fall back to `at` (and `durationMs`, which
 * an earlier rein CLI recorded); a session without times is drawn by entry order. `state`
 * entries (plugins' per-session state) are read and checked like the rest, but not drawn.
 * Read-only.
 */
import { DEPENDS_ON, parseSessionLog, readSession, referencedIds } from '@rein/agent'

/** One call on the timeline. */
export interface TraceCall {
  turn: number
  index: number
  id: string
  name: string
  /** The arguments the model wrote (parsed when they were a JSON string). */
  requested: unknown
  /** The arguments it ran with (references substituted), when it started. */
  arguments: unknown
  mode?: 'parallel' | 'exclusive'
  /** Whether a `tool/call` entry says it started. */
  started: boolean
  /** When it started and when its result was final (ms since the epoch). */
  startAt?: number
  endAt?: number
  /** When its body's onion began and returned; absent when the body never ran or the session predates them. */
  bodyStartAt?: number
  bodyEndAt?: number
  startSeq?: number
  endSeq?: number
  /** `ok`, the failure's code, or `no result`. */
  outcome: string
  /** The start of the text the model was shown. */
  preview: string
  /** Ids of calls of the same batch it waited for. */
  deps: string[]
  /** Facts plugins recorded (attempts, cacheHit, spilled), when the session kept them. */
  meta?: Record<string, unknown>
}

/** One batch: the assistant message's text and its calls in model order. */
export interface TraceTurn {
  turn: number
  text: string
  calls: TraceCall[]
  outcome?: string
}

export interface Trace {
  turns: TraceTurn[]
  /** Every started call has a start time: draw on a clock; else by entry order. */
  timed: boolean
}

type Entry = Record<string, any>
const PREVIEW_CHARS = 600

/**
 * Reads and parses the session file at `path`. Throws with `path:line` on a damaged line, and
 * names the path when it is not a regular file (a FIFO is never waited on).
 */
export async function readTraceFile(path: string): Promise<Trace> {
  return traceOf((await readSession(path)).entries as unknown as Entry[])
}

/** Parses session JSONL text with the agent's reader: a damaged line throws `<name>:<line>: ...`; a torn last line is left out. */
export function readTrace(text: string, name = 'session'): Trace {
  // The session format has one reader: @rein/agent's (each line checked, `seq` in order, a torn tail left out).
  return traceOf(parseSessionLog(text, name).entries as unknown as Entry[])
}

function traceOf(entries: Entry[]): Trace {
  const turns = new Map<number, TraceTurn>()
  const calls = new Map<string, TraceCall>()
  const key = (turn: number, index: number) => `${turn}:${index}`
  const turnOf = (turn: number) => {
    let found = turns.get(turn)
    if (!found) turns.set(turn, found = { turn, text: '', calls: [] })
    return found
  }
  const callOf = (turn: number, index: number, id: string, name: string, requested: unknown) => {
    let found = calls.get(key(turn, index))
    if (!found) {
      found = { turn, index, id, name, requested: parsed(requested), arguments: undefined, started: false, outcome: 'no result', preview: '', deps: [] }
      calls.set(key(turn, index), found)
      turnOf(turn).calls.push(found)
    }
    return found
  }

  for (const entry of entries) {
    const turn = entry.turn
    if (entry.type === 'message' && entry.message?.role === 'assistant' && typeof turn === 'number') {
      const t = turnOf(turn)
      t.text = typeof entry.message.content === 'string' ? entry.message.content : ''
      const toolCalls: Entry[] = Array.isArray(entry.message.toolCalls) ? entry.message.toolCalls : []
      toolCalls.forEach((c, index) => callOf(turn, index, String(c?.id ?? `#${index}`), String(c?.name ?? '?'), c?.arguments))
    } else if (entry.type === 'tool/call' && typeof turn === 'number') {
      const c = callOf(turn, entry.index, String(entry.call?.id), String(entry.call?.name), entry.call?.arguments)
      c.started = true
      c.arguments = parsed(entry.call?.arguments)
      c.startSeq = entry.seq
      if (typeof entry.at === 'number') c.startAt = entry.at
      if (entry.mode === 'parallel' || entry.mode === 'exclusive') c.mode = entry.mode
    } else if (entry.type === 'tool/result' && typeof turn === 'number') {
      const c = calls.get(key(turn, entry.index)) ?? callOf(turn, entry.index, String(entry.message?.toolCallId), '?', undefined)
      c.outcome = entry.message?.isError ? String(entry.code ?? 'TOOL_FAILED') : 'ok'
      c.preview = textOf(entry.message?.content).slice(0, PREVIEW_CHARS)
      c.endSeq = entry.seq
      readTimes(c, entry)
      if (entry.meta && typeof entry.meta === 'object') c.meta = entry.meta
    } else if (entry.type === 'turn/end' && typeof turn === 'number') {
      turnOf(turn).outcome = String(entry.outcome)
    }
  }

  const ordered = [...turns.values()].filter((t) => t.calls.length > 0).sort((a, b) => a.turn - b.turn)
  for (const t of ordered) {
    t.calls.sort((a, b) => a.index - b.index)
    const ids = new Set(t.calls.map((c) => c.id))
    for (const c of t.calls) c.deps = dependenciesOf(c).filter((id) => id !== c.id && ids.has(id))
  }
  const started = ordered.flatMap((t) => t.calls).filter((c) => c.started)
  return { turns: ordered, timed: started.length > 0 && started.every((c) => c.startAt !== undefined) }
}

/**
 * A result's times: the agent's `timing` when present; else an older session's `durationMs`
 * (from the start) or the result's `at` (its commit, possibly after the call ended).
 */
function readTimes(c: TraceCall, entry: Entry): void {
  const timing: Entry = isRecord(entry.timing) ? entry.timing : {}
  const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
  c.startAt = time(timing.startedAt) ?? c.startAt
  const measured = time(entry.durationMs)
  c.endAt = time(timing.finalAt) ?? (measured !== undefined && c.startAt !== undefined ? c.startAt + measured : time(entry.at))
  const bodyStart = time(timing.bodyStartedAt)
  const bodyEnd = time(timing.bodyEndedAt)
  if (bodyStart !== undefined && bodyEnd !== undefined) {
    c.bodyStartAt = bodyStart
    c.bodyEndAt = bodyEnd
  }
}

/** Ids referenced by the call's arguments, as requested and as run (a substituted call keeps only `$depends_on`, if that). */
export function dependenciesOf(call: Pick<TraceCall, 'requested' | 'arguments'>): string[] {
  const ids = new Set<string>()
  for (const args of [call.requested, call.arguments]) {
    for (const id of referencedIds(args)) ids.add(id)
    const explicit = isRecord(args) ? args[DEPENDS_ON] : undefined
    if (Array.isArray(explicit)) for (const id of explicit) if (typeof id === 'string') ids.add(id)
  }
  return [...ids]
}

function parsed(args: unknown): unknown {
  if (typeof args !== 'string') return args
  try {
    return args.trim() === '' ? {} : JSON.parse(args)
  } catch {
    return args
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((b) => (b?.type === 'text' ? String(b.text) : b?.type === 'image' ? '[image]' : '')).join('\n')
}

function isRecord(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
