/**
 * Short, single-line renderings of calls and results for progress output: an arguments
 * preview, the outcome word (`ok` or the error code), durations, and the notes a person
 * wants on a finished call (retried, cache hit, spilled, why it failed). Pure functions.
 */
import type { Json, ToolExecutionResult } from '@rein/kernel'
// The light entry (no cordis, no ajv): `rein --help` loads nothing of the runtime.
import { codeOf } from '@rein/kernel/results'
import { safeLine } from '../terminal-text.js'

/** `ok`, or the failure's code (`TOOL_FAILED` when a failure carries none). */
export function outcomeOf(result: ToolExecutionResult): string {
  return result.isError ? codeOf(result) ?? 'TOOL_FAILED' : 'ok'
}

/**
 * Arguments as compact one-line JSON, at most `max` characters. A raw JSON string is parsed
 * first. The model wrote them: control characters are shown escaped.
 */
export function argsPreview(args: unknown, max = 60): string {
  let value = args
  if (typeof args === 'string') {
    try {
      value = args.trim() === '' ? {} : JSON.parse(args)
    } catch {
      value = args
    }
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? ''
  return clip(safeLine(text.replace(/\s+/g, ' ')), max)
}

/** `text` cut to `max` characters, ending in `…` when cut. */
export function clip(text: string, max: number): string {
  if (max <= 0) return ''
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`
}

/**
 * `text` broken into lines for a terminal: the first at most `first` characters wide, the
 * others at most `rest`. Breaks at spaces; a word longer than a line is split. Nothing is
 * dropped: the lines joined with single spaces give back the text (runs of spaces collapse).
 */
export function wrap(text: string, first: number, rest = first): string[] {
  const lines: string[] = []
  let line = ''
  const room = () => Math.max(1, lines.length === 0 ? first : rest)
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > 0) {
      const gap = line ? 1 : 0
      if (line.length + gap + word.length <= room()) {
        line += (gap ? ' ' : '') + word
        word = ''
      } else if (line) {
        lines.push(line)
        line = ''
      } else {
        const cut = room()
        lines.push(word.slice(0, cut))
        word = word.slice(cut)
      }
    }
  }
  if (line || lines.length === 0) lines.push(line)
  return lines
}

/** `412ms` below a second, else `1.24s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(2)}s`
}

/** A byte count for people: `812 B`, `12.3 kB`, `4.1 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/** The facts plugins recorded on a result, read defensively (meta is free-form JSON). */
export interface ResultFacts {
  attempts?: number
  cacheHit?: boolean
  spilledBytes?: number
}

/** Reads `attempts`, `cacheHit` and `spilled.bytes` from `result.meta`. */
export function factsOf(meta: Record<string, Json> | undefined): ResultFacts {
  const facts: ResultFacts = {}
  if (!meta) return facts
  if (typeof meta.attempts === 'number') facts.attempts = meta.attempts
  if (meta.cacheHit === true) facts.cacheHit = true
  const spilled = meta.spilled
  if (spilled && typeof spilled === 'object' && !Array.isArray(spilled) && typeof spilled.bytes === 'number') {
    facts.spilledBytes = spilled.bytes
  }
  return facts
}

/** What to say about a finished call besides its outcome: retries, cache, spill, the error (its controls escaped). */
export function notesOf(result: ToolExecutionResult, maxError = 80): string[] {
  const facts = factsOf(result.meta)
  const notes: string[] = []
  if (facts.cacheHit) notes.push('cache hit')
  if (facts.attempts !== undefined && facts.attempts > 1) notes.push(`retried: ${facts.attempts} attempts`)
  if (facts.spilledBytes !== undefined) notes.push(`spilled ${formatBytes(facts.spilledBytes)}`)
  if (result.isError) notes.push(clip(safeLine(result.error.message.split('\n')[0] ?? ''), maxError))
  return notes
}
