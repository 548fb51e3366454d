/**
 * What an "allow for the session" answer covers (`Policy.sessionKeys`): each asking rule by its
 * index, and an ask from the default (or from a rule that matched only because the line could
 * not be read or named a command only at run time) by the exact call — the arguments, with a
 * command in focus standing for its line when the line is otherwise plain. A rule is named by its
 * index and a digest of what it says, so a rule that changed (the session outlives the process,
 * and the policy may change meanwhile) is a new rule: its asks are asked again.
 */
import { createHash } from 'node:crypto'
import { isPlainObject, type ShellLine } from './matchers.js'
import type { Action, Args } from './rule.js'
import { actionOf, mostSevere, type Decision } from './verdict.js'

/** The keys of every asking decision for tool `name`, or undefined when the call is not asked about. */
export function sessionKeys(decisions: Decision[], fallback: Action, name: string, args: Args): string[] | undefined {
  if (actionOf(mostSevere(decisions, fallback), fallback) !== 'ask') return undefined
  const keys = decisions.filter((decision) => actionOf(decision, fallback) === 'ask').map((decision) => `${name}\u0000${askKey(decision, args)}`)
  return [...new Set(keys)]
}

/**
 * What an ask is remembered by: the asking rule, unless it matched only because the line could
 * not be read or named a command at run time; then (and for the default) the exact call.
 */
function askKey({ rule, notes, focus }: Decision, args: Args): string {
  if (rule !== undefined && notes.length === 0) return `rule:${rule.index}:${digest(rule.rule)}`
  if (focus === undefined || !isPlain(focus.line)) return `call:${canonicalJson(args)}`
  const rest = Object.fromEntries(Object.entries(args).filter(([arg]) => arg !== focus.arg))
  const command = focus.line.reading.ok ? focus.line.reading.commands[focus.index] : undefined
  // The program as written: approving `git status` must not approve `./git status`.
  const words = command ? (command.program === undefined ? command.words : [command.program, ...command.words.slice(1)]) : []
  return `command:${JSON.stringify(focus.arg)}:${JSON.stringify(words)}:${canonicalJson(rest)}`
}

/** A line whose commands mean what they say one by one: readable, named, no file written, nothing assigned. */
function isPlain(line: ShellLine): boolean {
  return line.reading.ok && !line.reading.writes && line.unknown === undefined && !line.assigns
}

let unique = 0

/** A short digest of a rule as written: equal rules give equal digests. */
function digest(rule: unknown): string {
  return createHash('sha256').update(canonicalJson(rule)).digest('base64url').slice(0, 12)
}

/** JSON text with object keys sorted, so equal arguments give equal text; a value JSON cannot write gives a key nothing else has. */
function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (isPlainObject(inner) ? sortedKeys(inner) : inner)) ?? 'undefined'
  } catch {
    return `unwritable:${++unique}`
  }
}

function sortedKeys(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
