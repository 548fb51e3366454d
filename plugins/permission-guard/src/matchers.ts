/**
 * Argument matchers, compiled once at load. A text matcher (a glob string) tests the argument's
 * text; a shell matcher (`{ shell: glob }`) tests each simple command of a shell command line.
 * Restrictive rules (deny, ask) match generously: any command matching, a command whose name
 * is known only at run time, or text that cannot be read as shell. A permissive rule (allow)
 * matches only when every command is known and matches, never an argument (or a command word)
 * with a `..` path segment, and never a command line that redirects output into a file.
 */
import { compileGlob, GlobError } from './glob.js'
import { readCommandLine, type Reading } from './shell/read.js'
import { parseBash } from './shell/parser.js'

/** A matcher as written in the config. */
export type MatcherConfig = string | { shell: string }

/** A compiled matcher. */
export type Matcher =
  | { kind: 'text', glob: RegExp }
  | { kind: 'shell', glob: RegExp }

/** The outcome of testing one argument; `note` explains a shell match a person may not expect. */
export type Match = { matched: false } | { matched: true, note?: string }

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
export function compileGlobAt(text: string, path: (string | number)[]): RegExp {
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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PolicyError(path, `must be a glob string such as "src/*", or { shell: glob } for a shell command line; got ${JSON.stringify(value)}`)
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

/** Remembers the last readings, so the same call's pre-execute, guard and approval read it once. */
export function createShellReader(size = 64): (text: string) => Reading {
  const cache = new Map<string, Reading>()
  return (text) => {
    let reading = cache.get(text)
    if (reading === undefined) {
      reading = readCommandLine(text, parseBash)
      if (cache.size >= size) cache.delete(cache.keys().next().value as string)
      cache.set(text, reading)
    }
    return reading
  }
}

/** Tests one argument value (undefined when the call does not have it). */
export function testMatcher(
  matcher: Matcher,
  value: unknown,
  permissive: boolean,
  read: (text: string) => Reading,
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
      return permissive ? allows(matcher.glob, read(value)) : restricts(matcher.glob, read(value))
    }
    default:
      return unreachable(matcher)
  }
}

/** A deny or ask: any command matches, or one cannot be named, or the text cannot be read. */
function restricts(glob: RegExp, reading: Reading): Match {
  if (!reading.ok) return { matched: true, note: `the command could not be read as shell (${reading.reason}), so it counts as matching` }
  if (reading.commands.some((command) => command.known && glob.test(command.words.join(' ')))) return YES
  const unknown = reading.commands.find((command) => !command.known)
  if (unknown === undefined) return NO
  return { matched: true, note: `${JSON.stringify(unknown.words.join(' '))} names its command only at run time, so it counts as matching` }
}

/**
 * An allow: there is at least one command, every one is known, matches and has no `..` segment,
 * and no redirection writes to a file (`git log > ~/.bashrc` is not "git log").
 */
function allows(glob: RegExp, reading: Reading): Match {
  if (!reading.ok || reading.commands.length === 0 || reading.writes) return NO
  const every = reading.commands.every((command) => command.known
    && !command.words.some((word) => TRAVERSAL.test(word))
    && glob.test(command.words.join(' ')))
  return every ? YES : NO
}

function unreachable(value: never): never {
  throw new Error(`unhandled matcher ${JSON.stringify(value)}`)
}
