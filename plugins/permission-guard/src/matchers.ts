/**
 * Argument matchers, compiled once at load. A text matcher (a glob string) tests the argument's
 * text; a shell matcher (`{ shell: glob }`) tests each simple command of a shell command line,
 * or, when the policy evaluates a line command by command, only the command in focus.
 * Restrictive rules (deny, ask) match generously: any command matching, a command whose name
 * is known only at run time, or text that cannot be read as shell. A permissive rule (allow)
 * matches only when every command is known and matches, never an argument (or a command word)
 * with a `..` path segment, never a command line that redirects output into a file, and never
 * one that assigns a variable (`GIT_EXTERNAL_DIFF=… git diff`). Unreadable text, unknown
 * command names, output redirections and assignments count for the whole line, whichever
 * command is in focus.
 */
import { compileGlob, GlobError, parseBash, readCommandLine, type Glob, type Reading, type ShellCommand } from '@rein/shell-reader'

/** A matcher as written in the config. */
export type MatcherConfig = string | { shell: string }

/** A compiled matcher. */
export type Matcher =
  | { kind: 'text', glob: Glob }
  | { kind: 'shell', glob: Glob }

/** The outcome of testing one argument; `note` explains a shell match a person may not expect. */
export type Match = { matched: false } | { matched: true, note?: string }

/** A command line as shell matchers see it: the reading, and the facts about the whole line. */
export interface ShellLine {
  readonly reading: Reading
  /** Each command as a glob tests it: its words joined by single spaces (empty when unreadable). */
  readonly texts: readonly string[]
  /** The first command whose name is known only at run time, if any. */
  readonly unknown?: ShellCommand
  /** Whether a command assigns a variable (`A=1 cmd`, or `A=1` alone). */
  readonly assigns: boolean
}

/** Reads (or remembers) a command line. */
export type ShellReader = (text: string) => ShellLine

/** A config entry that cannot be compiled; `path` names it (`['rules', 2, 'when', 'path']`). */
export class PolicyError extends Error {
  constructor(readonly path: (string | number)[], message: string) {
    super(message)
    this.name = 'PolicyError'
  }
}

/** A `..` path segment, in plain text or inside JSON text (`["../x"]`). */
const TRAVERSAL = /(^|[\\/"])\.\.([\\/"]|$)/

const NO = { matched: false } as const
const YES = { matched: true } as const

/** Compiles a glob; a malformed one is a `PolicyError` at `path`. */
export function compileGlobAt(text: string, path: (string | number)[]): Glob {
  try {
    return compileGlob(text)
  } catch (error) {
    if (error instanceof GlobError) throw new PolicyError(path, `${JSON.stringify(text)} ${error.message}`)
    throw error
  }
}

/** Compiles one `when` entry. Throws `PolicyError` naming the entry and the fix. */
export function compileMatcher(value: unknown, path: (string | number)[]): Matcher {
  if (typeof value === 'string') return { kind: 'text', glob: compileGlobAt(value, path) }
  if (!isPlainObject(value)) {
    throw new PolicyError(path, `must be a glob string such as "src/*", or { shell: glob } for a shell command line; got ${describeValue(value)}`)
  }
  const unknown = Object.keys(value).find((key) => key !== 'shell')
  if (unknown !== undefined) {
    throw new PolicyError(path, `has an unknown key ${JSON.stringify(unknown)}: the only key is "shell", as in { shell: "rm *" }`)
  }
  const glob: unknown = (value as { shell?: unknown }).shell
  if (typeof glob !== 'string' || glob === '') {
    throw new PolicyError([...path, 'shell'], `must be a non-empty glob string such as "rm *"; got ${JSON.stringify(glob)}`)
  }
  return { kind: 'shell', glob: compileGlobAt(glob, [...path, 'shell']) }
}

/** How a matcher is shown in messages: `"src/*"` or `shell "rm *"`. */
export function describeMatcher(value: MatcherConfig): string {
  return typeof value === 'string' ? JSON.stringify(value) : `shell ${JSON.stringify(value.shell)}`
}

/**
 * The text a text matcher tests: a string as is, anything else as its JSON text
 * (`true`, `42`, `["a","b"]`); a missing argument matches nothing.
 */
export function argumentText(value: unknown): string | undefined {
  if (value === undefined) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * Whether `value` is a plain object (`{ … }` as JSON or YAML writes it): not null, an array, a
 * Map, a Set or a class instance, whose keys would not be what `Object.entries` sees.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** A value as shown in a config error: its JSON text, or what kind of object it is when JSON would hide that. */
export function describeValue(value: unknown): string {
  if (value instanceof Map) return 'a Map'
  if (value instanceof Set) return 'a Set'
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !isPlainObject(value)) {
    return 'an object whose prototype is not Object.prototype'
  }
  return JSON.stringify(value) ?? String(value)
}

/** Remembers the last lines read, so the same call's pre-execute, guard and approval read it once. */
export function createShellReader(size = 64): ShellReader {
  const cache = new Map<string, ShellLine>()
  return (text) => {
    let line = cache.get(text)
    if (line === undefined) {
      line = lineOf(readCommandLine(text, parseBash))
      if (cache.size >= size) cache.delete(cache.keys().next().value as string)
      cache.set(text, line)
    }
    return line
  }
}

/** The facts shell matchers need about a reading, worked out once. */
function lineOf(reading: Reading): ShellLine {
  if (!reading.ok) return { reading, texts: [], assigns: false }
  return {
    reading,
    texts: reading.commands.map((command) => command.words.join(' ')),
    unknown: reading.commands.find((command) => !command.known),
    assigns: reading.commands.some((command) => command.assigns),
  }
}

/**
 * Tests one argument value (undefined when the call does not have it). `focus`, for a shell
 * matcher, is the index of the one command to test (the policy's per-command evaluation);
 * the line's unknown names, redirections and assignments still count.
 */
export function testMatcher(
  matcher: Matcher,
  value: unknown,
  permissive: boolean,
  read: ShellReader,
  focus?: number,
): Match {
  if (value === undefined) return NO
  switch (matcher.kind) {
    case 'text': {
      const text = argumentText(value)!
      if (permissive && TRAVERSAL.test(text)) return NO
      return matcher.glob.test(text) ? YES : NO
    }
    case 'shell': {
      if (typeof value !== 'string') {
        return permissive ? NO : { matched: true, note: 'the argument is not a string, so it cannot be read as a shell command' }
      }
      const line = read(value)
      return permissive ? allows(matcher.glob, line, focus) : restricts(matcher.glob, line, focus)
    }
    default:
      return unreachable(matcher)
  }
}

/** A deny or ask: any command (or the one in focus) matches, or one cannot be named, or the text cannot be read. */
function restricts(glob: Glob, line: ShellLine, focus: number | undefined): Match {
  const { reading, texts, unknown } = line
  if (!reading.ok) return { matched: true, note: `the command could not be read as shell (${reading.reason}), so it counts as matching` }
  const matched = focus === undefined
    ? reading.commands.some((command, i) => command.known && glob.test(texts[i]))
    : reading.commands[focus].known && glob.test(texts[focus])
  if (matched) return YES
  if (unknown === undefined) return NO
  return { matched: true, note: `${JSON.stringify(unknown.words.join(' '))} names its command only at run time, so it counts as matching` }
}

/**
 * An allow: there is at least one command, every one is known and none assigns a variable, no
 * redirection writes to a file (`git log > ~/.bashrc` is not "git log"), and every command (or
 * the one in focus) matches and has no `..` segment.
 */
function allows(glob: Glob, line: ShellLine, focus: number | undefined): Match {
  const { reading, texts } = line
  if (!reading.ok || reading.commands.length === 0 || reading.writes || line.unknown || line.assigns) return NO
  const fits = (i: number) => !reading.commands[i].words.some((word) => TRAVERSAL.test(word)) && glob.test(texts[i])
  if (focus !== undefined) return fits(focus) ? YES : NO
  return reading.commands.every((_, i) => fits(i)) ? YES : NO
}

function unreachable(value: never): never {
  throw new Error(`unhandled matcher ${JSON.stringify(value)}`)
}
