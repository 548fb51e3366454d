/**
 * The shapes every few-shot module shares: one example tool call, the items of an example
 * file, and a problem with one. A problem's `message` is the whole line to print,
 * `file:line label tool: detail`; problems are values, never thrown.
 */
import { formatLocation } from './errors.js'
import type { ValuePath } from './source.js'

/** One example tool call, from an example file or written inline in `agent.system`. */
export interface ToolCallExample {
  /** The example file, or the config file holding `agent.system`; undefined for a system prompt given in code. */
  file: string | undefined
  /** The 1-based line of its arguments (of the example itself, inline), when known. */
  line: number | undefined
  /** `example[3]`, `example[3].toolCalls[1]` inside an assistant message, or `agent.system`. */
  label: string
  tool: string
  /** The arguments as written (an object, or the JSON string of one). */
  arguments: unknown
  /** Where the arguments sit in an example file; `[]` when they are not a YAML value of their own. */
  path: ValuePath
  /** The call's id, when an assistant message gives one (other calls may reference it). */
  id?: string
}

/** What an example file shows: a lone call, or an assistant message with its calls, in file order. */
export type ExampleItem =
  | { kind: 'call', call: ToolCallExample }
  | { kind: 'message', content: string | undefined, calls: ToolCallExample[] }

/** A problem with an example or an example file. `message` is the full line to print. */
export interface ExampleProblem {
  file: string | undefined
  line: number | undefined
  label: string | undefined
  tool: string | undefined
  detail: string
  message: string
}

/** What `checkExamples` found. */
export interface ExampleReport {
  /** How many tool calls were checked (from the files and from `agent.system`). */
  checked: number
  /** How many of them were written inline in `agent.system`. */
  inline: number
  problems: ExampleProblem[]
}

/** A problem at `file:line`, naming the example and its tool when there are any. */
export function problem(file: string | undefined, line: number | undefined, label: string | undefined, tool: string | undefined, detail: string): ExampleProblem {
  const entry = [label, tool].filter(Boolean).join(' ')
  return { file, line, label, tool, detail, message: `${formatLocation({ file, line, entry })}: ${detail}` }
}

/** The calls of `items`, in order. */
export function callsOf(items: readonly ExampleItem[]): ToolCallExample[] {
  return items.flatMap((item) => item.kind === 'call' ? [item.call] : item.calls)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
