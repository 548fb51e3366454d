/**
 * Reads a shell command line as the simple commands it runs, normalised for matching:
 * assignments, redirections, quotes and escapes are gone, a path to a program is reduced to its
 * base name, and the commands that wrappers (`sudo`, `xargs`, `find -exec`) and shell source
 * (`sh -c`, `eval`, here-documents fed to a shell) run are read as commands too. A command whose
 * name is only known at run time is kept with `known: false`. Text that does not parse, nests
 * too deep (`MAX_DEPTH`, `MAX_WRAPPERS`) or is too long (`MAX_LENGTH`) is `{ ok: false }`: the
 * caller must treat it as the worst case.
 */
import { staticText, wordText, type ShellParser, type Word } from './syntax.js'
import { wrapped } from './wrappers.js'

/** One simple command: its name (base name only) and its arguments, as text. */
export interface ShellCommand {
  words: string[]
  /** False when the command name is only known at run time (`$cmd x`, `$(which rm) x`). */
  known: boolean
}

/** The commands of a command line, and whether a redirection in it writes to a file. */
export type Reading =
  | { ok: true, commands: ShellCommand[], writes: boolean }
  | { ok: false, reason: string }

/** How many levels of `sh -c` / `eval` inside each other are read before giving up. */
export const MAX_DEPTH = 8
/** How many wrappers around one command (`sudo env nice …`) are read before giving up. */
export const MAX_WRAPPERS = 32
/** Longer command lines are not read (parsing is synchronous: this bounds the time it takes). */
export const MAX_LENGTH = 128 * 1024

/** Reads `source` with `parse`; never throws. */
export function readCommandLine(source: string, parse: ShellParser): Reading {
  if (source.length > MAX_LENGTH) return { ok: false, reason: `it is longer than ${MAX_LENGTH / 1024} KiB` }
  const reader: Reader = { parse, commands: [], writes: false }
  try {
    const reason = readScript(source, reader, 0)
    return reason === undefined ? { ok: true, commands: reader.commands, writes: reader.writes } : { ok: false, reason }
  } catch (error) {
    return { ok: false, reason: error instanceof RangeError ? 'it is nested too deeply' : String(error) }
  }
}

interface Reader {
  parse: ShellParser
  commands: ShellCommand[]
  writes: boolean
}

/** Appends the commands of `source`; returns why it cannot be read, if it cannot. */
function readScript(source: string, reader: Reader, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `shell code nested more than ${MAX_DEPTH} levels deep`
  const parsed = reader.parse(source)
  if (!parsed.ok) return parsed.reason
  reader.writes ||= parsed.writes
  for (const command of parsed.commands) {
    const reason = readCommand(command.words, command.input, reader, depth, 0)
    if (reason !== undefined) return reason
  }
  return undefined
}

function readCommand(words: readonly Word[], input: Word | undefined, reader: Reader, depth: number, wrappers: number): string | undefined {
  if (words.length === 0) return undefined
  if (wrappers > MAX_WRAPPERS) return `more than ${MAX_WRAPPERS} wrappers around one command`
  const text = words.map(wordText)
  const name = commandName(words[0])
  if (name === undefined) {
    reader.commands.push({ words: text, known: false })
    return undefined
  }
  reader.commands.push({ words: [name, ...text.slice(1)], known: true })
  for (const inner of wrapped(name, words)) {
    let reason: string | undefined
    switch (inner.kind) {
      case 'command':
        // The wrapped command inherits standard input (`sudo bash <<EOF`).
        reason = readCommand(inner.words, input, reader, depth, wrappers + 1)
        break
      case 'script':
        reason = readSource(inner.words, reader, depth)
        break
      case 'stdin':
        reason = input ? readSource([input], reader, depth) : undefined
        break
      case 'unknown':
        reader.commands.push({ words: text, known: false })
        break
      default:
        return unreachable(inner)
    }
    if (reason !== undefined) return reason
  }
  return undefined
}

/** Reads words that hold shell source; source known only at run time is an unknown command. */
function readSource(words: readonly Word[], reader: Reader, depth: number): string | undefined {
  const texts = words.map(staticText)
  if (texts.some((text) => text === undefined)) {
    reader.commands.push({ words: words.map(wordText), known: false })
    return undefined
  }
  return readScript(texts.join(' '), reader, depth + 1)
}

/**
 * The base name of the program a command word names, or undefined when only the running shell
 * could tell: an expansion, a glob or brace pattern the shell would expand, whitespace, or nothing.
 */
export function commandName(word: Word): string | undefined {
  const text = staticText(word)
  if (text === undefined) return undefined
  const unquoted = word.parts.map((part) => (part.kind === 'literal' && !part.quoted ? part.text : '_')).join('')
  if (/[*?]|\[.*\]|\{.*\}/s.test(unquoted)) return undefined
  const name = text.slice(text.lastIndexOf('/') + 1)
  return name === '' || /\s/.test(name) ? undefined : name
}

function unreachable(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`)
}
