/**
 * Reads a shell command line as the simple commands it runs, normalised for matching:
 * assignments (a command run with them is marked `assigns`), redirections, quotes and escapes
 * are gone, a path to a program is reduced to its base name, and the commands that wrappers
 * (`sudo`, `xargs`, `find -exec`) and shell source (`sh -c`, `eval`, here-documents fed to a
 * shell) run are read as commands too. A command whose name is only known at run time is kept
 * with `known: false`, and so is code bash evaluates at run time (`(( x ))`, `${!x}`,
 * `printf -v 'a[$i]'`, `source FILE`). Text that does not parse, nests too deep (`MAX_DEPTH`,
 * `MAX_WRAPPERS`) or is too long (`MAX_LENGTH`) is `{ ok: false }`: the caller must treat it as
 * the worst case.
 */
import { arraysMade, BASH_ARRAYS, reparsedIfArray } from './arrays.js'
import { plainAssignment, setsVariables } from './evaluation.js'
import { staticText, wordText, type ShellParser, type SimpleCommand, type Word } from './syntax.js'
import { wrapped } from './wrappers.js'

/**
 * One simple command: its name (base name only) and its arguments, as text. A statement of
 * assignments only (`PATH=.:$PATH`) is a command of its own whose words are the assignments
 * (`['PATH=.:$PATH']`), with `known: true` (unless an assignment is code, as `PS4=…` is) and
 * `assigns: true`.
 */
export interface ShellCommand {
  words: string[]
  /**
   * False when the command name is only known at run time (`$cmd x`, `$(which rm) x`), or the
   * entry stands for code bash evaluates at run time (`(( x ))`, `[[ -v $v ]]`, `${!x}`,
   * `printf -v "$v"`, `mapfile -C cb`, `source f`, `OPTIND=$x`), written as its source.
   */
  known: boolean
  /**
   * True when the command runs with variables set on the line: `NAME=value` prefixes
   * (`A=1 git status`), a wrapper's settings (`env A=1 git status`, `sudo A=1 …`), prefixes of
   * the command that runs it (`A=1 bash -c 'git status'`); and for a statement of assignments
   * only. A variable can make an allowed program run other code (`GIT_EXTERNAL_DIFF`,
   * `LD_PRELOAD`, `BASH_ENV`, `PATH`), so an allow rule must not match such a command. The words
   * do not include the prefixes: `FOO=1 rm x` reads as `rm x`.
   */
  assigns: boolean
  /**
   * The command word as written, when it is not the base name the words start with (`./git`,
   * `/tmp/x/git` read as `git`): globs match the base name, but what was approved is this.
   */
  program?: string
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
  const reader: Reader = { parse, commands: [], writes: false, arrays: new Set(BASH_ARRAYS), ifArray: [] }
  try {
    const reason = readScript(source, reader, 0, { other: false, assigns: false })
    return reason === undefined ? { ok: true, commands: withArrays(reader), writes: reader.writes } : { ok: false, reason }
  } catch (error) {
    return { ok: false, reason: error instanceof RangeError ? 'it is nested too deeply' : String(error) }
  }
}

interface Reader {
  parse: ShellParser
  commands: ShellCommand[]
  writes: boolean
  /** Variables the line makes arrays, anywhere in it (a function may run before its text). */
  arrays: Set<string>
  /** Declarations whose arguments are code if these variables are arrays (`arrays.ts`). */
  ifArray: { at: number, names: string[], command: ShellCommand }[]
}

/**
 * The commands, with each declaration whose argument bash parses again because its variable is
 * an array somewhere on the line (`y=(); declare y=$v`) followed by itself as unknown code.
 */
function withArrays(reader: Reader): ShellCommand[] {
  const commands = [...reader.commands]
  for (const { at, names, command } of [...reader.ifArray].reverse()) {
    if (names.some((name) => reader.arrays.has(name))) commands.splice(at, 0, { ...command, known: false })
  }
  return commands
}

/** Notes the variables a command or its assignments make arrays. */
function noteArrays(reader: Reader, name: string | undefined, words: readonly Word[], assignments: readonly Word[]): void {
  for (const variable of arraysMade(name, words, assignments)) reader.arrays.add(variable)
}

/** What a command reads besides its words: here-documents, and whether variables were set for it. */
interface Context {
  /** The here-document or here-string on standard input. */
  input?: Word
  /** Whether a here-document or here-string feeds another descriptor. */
  other: boolean
  /** Whether variables are set on the line for this command. */
  assigns: boolean
}

/**
 * Appends the commands of `source`; returns why it cannot be read, if it cannot. A script's
 * commands inherit the here-documents and the settings of the command that runs it.
 */
function readScript(source: string, reader: Reader, depth: number, inherited: Context): string | undefined {
  if (depth > MAX_DEPTH) return `shell code nested more than ${MAX_DEPTH} levels deep`
  const parsed = reader.parse(source)
  if (!parsed.ok) return parsed.reason
  reader.writes ||= parsed.writes
  for (const command of parsed.commands) {
    const context: Context = {
      input: command.input ?? inherited.input,
      other: command.otherInput === true || inherited.other,
      assigns: inherited.assigns || (command.assigns ?? []).length > 0,
    }
    const reason = readSimple(command, context, reader, depth)
    if (reason !== undefined) return reason
  }
  return undefined
}

/** One simple command of a script, with its `NAME=value` prefixes (or only those). */
function readSimple(command: SimpleCommand, context: Context, reader: Reader, depth: number): string | undefined {
  const settings = command.assigns ?? []
  noteArrays(reader, undefined, [], settings)
  if (command.words.length === 0) {
    if (settings.length > 0) reader.commands.push({ words: settings.map(wordText), known: settings.every(plainAssignment), assigns: true })
    return undefined
  }
  readSettings(settings, reader)
  return readCommand(command.words, context, reader, depth, 0)
}

/** Settings that are code (`PS4=…`, `OPTIND=$x`, `BASH_FUNC_f%%=…`) as a command known only at run time. */
function readSettings(settings: readonly Word[], reader: Reader): void {
  const code = settings.filter((setting) => !plainAssignment(setting))
  if (code.length > 0) reader.commands.push({ words: code.map(wordText), known: false, assigns: true })
}

function readCommand(words: readonly Word[], context: Context, reader: Reader, depth: number, wrappers: number): string | undefined {
  if (words.length === 0) return undefined
  if (wrappers > MAX_WRAPPERS) return `more than ${MAX_WRAPPERS} wrappers around one command`
  const text = words.map(wordText)
  const name = commandName(words[0])
  const { assigns } = context
  if (name === undefined) {
    reader.commands.push({ words: text, known: false, assigns })
    return undefined
  }
  const command: ShellCommand = { words: [name, ...text.slice(1)], known: true, assigns: assigns || setsVariables(name, words) }
  if (text[0] !== name) command.program = text[0]
  reader.commands.push(command)
  noteArrays(reader, name, words, [])
  const ifArray = reparsedIfArray(name, words)
  if (ifArray.length > 0) reader.ifArray.push({ at: reader.commands.length, names: ifArray, command: { words: command.words, known: false, assigns: command.assigns } })
  for (const inner of wrapped(name, words, { stdin: context.input !== undefined, other: context.other })) {
    let reason: string | undefined
    switch (inner.kind) {
      case 'command':
        // The wrapped command inherits standard input (`sudo bash <<EOF`) and the settings.
        readSettings(inner.settings, reader)
        reason = readCommand(inner.words, { ...context, assigns: assigns || inner.settings.length > 0 }, reader, depth, wrappers + 1)
        break
      case 'script':
        reason = readSource(inner.words, context, reader, depth)
        break
      case 'stdin':
        // With no here-document or here-string, the script comes from a pipe, a redirected file
        // or a script file (`echo 'rm x' | bash`, `bash < x.sh`, `bash x.sh`): unknown code.
        if (context.input) reason = readSource([context.input], { other: context.other, assigns }, reader, depth)
        else pushUnknown(reader, text, assigns)
        break
      case 'unknown':
        pushUnknown(reader, text, assigns)
        break
      default:
        return unreachable(inner)
    }
    if (reason !== undefined) return reason
  }
  return undefined
}

/** Reads words that hold shell source; source known only at run time is an unknown command. */
function readSource(words: readonly Word[], context: Context, reader: Reader, depth: number): string | undefined {
  const texts = words.map(staticText)
  if (texts.some((text) => text === undefined)) {
    reader.commands.push({ words: words.map(wordText), known: false, assigns: context.assigns })
    return undefined
  }
  return readScript(texts.join(' '), reader, depth + 1, context)
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

/** Records `words` as a command known only at run time, once: a second reason adds nothing to match. */
function pushUnknown(reader: Reader, words: string[], assigns: boolean): void {
  const last = reader.commands.at(-1)
  if (last && !last.known && last.assigns === assigns && last.words.join(' ') === words.join(' ')) return
  reader.commands.push({ words, known: false, assigns })
}
