/**
 * Where a command's words make bash evaluate text as code at run time, and which builtins set
 * variables. Builtins that take a variable name evaluate a subscript in it as arithmetic, and
 * arithmetic runs `$(…)` (`printf -v 'a[$(rm x)]' 1` runs `rm x`); `mapfile -C` runs a
 * callback; `let` is arithmetic; `hash -p`, `alias` and `enable -f` change what a later name
 * runs; and some variables are code (`PS4`, `BASH_ENV`) or arithmetic (`OPTIND`, `RANDOM`) when
 * assigned. Each answer fails closed: what is not plainly data counts as code.
 */
import { DECLARATIONS, reparsed } from './arrays.js'
import { staticText, type Word } from './syntax.js'

/** A variable name as bash takes it without evaluating anything: `x`, or `a[0]`. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?$/
const ASSIGNED = /^([A-Za-z_][A-Za-z0-9_]*)(\[\d+\])?\+?=/

/**
 * Variables whose value bash runs, prompt-expands (with `$(…)`) or sources as a file, or that
 * decide what a later name runs (`BASH_CMDS` is the hash table, `BASH_ALIASES` the aliases).
 */
const CODE_VARIABLES = new Set(['PS0', 'PS1', 'PS2', 'PS3', 'PS4', 'PROMPT_COMMAND', 'BASH_ENV', 'ENV', 'BASH_CMDS', 'BASH_ALIASES'])

/** Whether setting the variable `name` (or its elements) can make bash run code. */
export function isCodeVariable(name: string): boolean {
  return CODE_VARIABLES.has(name) || name.startsWith('BASH_FUNC_')
}
/** Variables whose value bash evaluates as arithmetic when it is assigned. */
const ARITHMETIC_VARIABLES = new Set(['OPTIND', 'RANDOM', 'SRANDOM', 'HISTCMD', 'SECONDS', 'LINENO',
  'EPOCHSECONDS', 'EPOCHREALTIME', 'BASHPID', 'FUNCNEST'])

/**
 * Whether an assignment word (a `NAME=value` prefix, a statement of assignments, a declaration's
 * argument, or a setting of `env` or `sudo`) only sets a variable to text.
 */
export function plainAssignment(word: Word): boolean {
  const match = ASSIGNED.exec(leadingText(word))
  if (!match) return false
  const name = match[1]
  if (isCodeVariable(name)) return false
  if (!ARITHMETIC_VARIABLES.has(name)) return true
  return /^\s*-?\d+\s*$/.test(staticText(word)?.slice(match[0].length) ?? '')
}

/** The literal text a word starts with, up to its first expansion. */
function leadingText(word: Word): string {
  let text = ''
  for (const part of word.parts) {
    if (part.kind === 'dynamic') break
    text += part.text
  }
  return text
}

/** The options of a builtin that takes variable names. */
interface NameOptions {
  /** Options without a value. */
  flags: string
  /** Options whose value is data. */
  values: string
  /** Options whose value is a variable name. */
  names: string
  /** Whether the operands are variable names (`read a b`) or data (`printf '%s' x`). */
  operands: 'names' | 'data'
}

const NAME_BUILTINS: Record<string, NameOptions> = {
  printf: { flags: '', values: '', names: 'v', operands: 'data' },
  read: { flags: 'ersE', values: 'dinNptu', names: 'a', operands: 'names' },
  mapfile: { flags: 't', values: 'cdnOsu', names: '', operands: 'names' },
  readarray: { flags: 't', values: 'cdnOsu', names: '', operands: 'names' },
  unset: { flags: 'fnv', values: '', names: '', operands: 'names' },
  wait: { flags: 'fn', values: '', names: 'p', operands: 'data' },
  hash: { flags: 'dlrt', values: '', names: '', operands: 'data' },
  enable: { flags: 'adnps', values: '', names: '', operands: 'data' },
}

/**
 * Builtins that run text given to them, or replay earlier commands, when one of these options
 * is given: completion word lists and commands (`compgen -W "$(rm x)"`, `complete -C cmd`),
 * key bindings that run commands (`bind -x`), and history replay (`history -s`, then `fc -s`).
 * `fc` runs commands unless it only lists them (`-l`).
 */
const CODE_OPTIONS: Record<string, RegExp> = {
  compgen: /^-[A-Za-z]*[WCF]/,
  complete: /^-[A-Za-z]*[WCF]/,
  bind: /^-[A-Za-z]*x/,
  history: /^-[A-Za-z]*s/,
}

/** Whether the bash builtin `name` (a base name) with these words may evaluate text as code. */
export function evaluatesCode(name: string, words: readonly Word[]): boolean {
  if (name === 'let' || name === 'nameref') return true
  if (name === 'fc') return !words.slice(1).some((word) => /^-[A-Za-z]*l/.test(staticText(word) ?? ''))
  if (Object.hasOwn(CODE_OPTIONS, name)) return words.slice(1).some((word) => { const text = staticText(word); return text === undefined || CODE_OPTIONS[name].test(text) })
  if (name === 'test') return testEvaluates(words.slice(1))
  if (name === '[') return testEvaluates(words.slice(1, staticText(words[words.length - 1]) === ']' ? -1 : undefined))
  if (name === 'alias') return words.slice(1).some((word) => staticText(word)?.includes('=') ?? true)
  if (DECLARATIONS.has(name)) return declares(words)
  const names = namesSet(name, words)
  return names === undefined || names.some((variable) => isCodeVariable(variable.replace(/\[.*$/s, '')))
}

/**
 * Whether the builtin `name` sets a variable that may be in the environment of the commands
 * after it: a declaration naming a variable (`export A=1`, `local x`), or `read`, `printf -v`,
 * `mapfile`, `getopts` or `wait -p` setting a name with a capital letter (`read PATH`), as
 * environment variables are named.
 */
export function setsVariables(name: string, words: readonly Word[]): boolean {
  if (DECLARATIONS.has(name)) return declaresNames(words)
  return namesSet(name, words)?.some((variable) => /[A-Z]/.test(variable)) ?? false
}

/** The variables a builtin sets, or undefined when a name may be code; none for other commands. */
function namesSet(name: string, words: readonly Word[]): string[] | undefined {
  if (name === 'getopts') {
    if (words.length < 3) return []
    const variable = staticText(words[2])
    return staticText(words[1]) !== undefined && variable !== undefined && NAME.test(variable) ? [variable] : undefined
  }
  return Object.hasOwn(NAME_BUILTINS, name) ? namesIn(words, NAME_BUILTINS[name]) : []
}

/**
 * The variable names in option and operand words, or undefined when one may be code: a name
 * with a subscript, an option this does not list (`mapfile -C`, `hash -p`, `enable -f`), or an
 * expansion where an option could be (`printf $opts …` may be `-v a[$(rm x)]`).
 */
function namesIn(words: readonly Word[], options: NameOptions): string[] | undefined {
  const names: string[] = []
  let i = 1
  for (; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return undefined
    if (text === '--') {
      i++
      break
    }
    if (!text.startsWith('-') || text === '-') break
    const option = optionCluster(text.slice(1), words[i + 1], options)
    if (option === undefined) return undefined
    if (option.name !== undefined) names.push(option.name)
    i += option.words - 1
  }
  if (options.operands === 'data') return names
  for (const word of words.slice(i)) {
    const text = staticText(word)
    if (text === undefined || !NAME.test(text)) return undefined
    names.push(text)
  }
  return names
}

/**
 * How many words an option cluster (`-rp`, `-vname`, `-v name`) takes up and the variable it
 * names, or undefined when it may be code.
 */
function optionCluster(cluster: string, next: Word | undefined, options: NameOptions): { words: number, name?: string } | undefined {
  for (let k = 0; k < cluster.length; k++) {
    const letter = cluster[k]
    if (options.flags.includes(letter)) continue
    const attached = cluster.slice(k + 1)
    const words = attached !== '' ? 1 : 2
    if (options.values.includes(letter)) return { words }
    if (!options.names.includes(letter)) return undefined
    const name = attached !== '' ? attached : next && staticText(next)
    return name !== undefined && NAME.test(name) ? { words, name } : undefined
  }
  return { words: 1 }
}

/** Whether a declaration declares, sets or exports a variable, rather than printing (`-p`) or handling functions (`-f`). */
function declaresNames(words: readonly Word[]): boolean {
  let named = false
  for (const word of words.slice(1)) {
    const text = staticText(word)
    if (text !== undefined && /^[-+][A-Za-z]*$/.test(text)) {
      if (/[pfF]/.test(text)) return false
    } else if (text !== '--') named = true
  }
  return named
}

/**
 * `declare`, `local`, `export`…: `-n` (a name reference), `-i` (arithmetic), a name with a
 * subscript, or a value bash parses again as a compound array assignment (`arrays.ts`).
 */
function declares(words: readonly Word[]): boolean {
  return words.slice(1).some((word) => {
    const text = staticText(word)
    if (text === '--') return false
    if (text !== undefined && /^[-+][A-Za-z]*$/.test(text)) return /[in]/.test(text)
    return !(text !== undefined && NAME.test(text)) && (!plainAssignment(word) || reparsed(words, word))
  })
}

/** Binary operators of `test` and `[`; none of them evaluates an operand. */
const BINARY_TESTS = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef', '-a', '-o'])
/** `test -v name`, `test -R name`: the name may carry a subscript. */
const NAME_TESTS = new Set(['-v', '-R'])

/**
 * Whether `test` / `[` may evaluate a variable name (`-v 'a[$(rm x)]'`). Which words are
 * operators depends on how many words there are, so an expansion is accepted only where its
 * value cannot become an operator: `[ -n "$x" ]`, `[ "$a" = "$b" ]`, quoted, as one word.
 */
function testEvaluates(args: readonly Word[]): boolean {
  if (!args.every(singleWord)) return true
  const texts = args.map(staticText)
  if (texts.every((text) => text !== undefined)) {
    return texts.some((text, i) => NAME_TESTS.has(text!) && i + 1 < texts.length && !NAME.test(texts[i + 1]!))
  }
  if (texts.length === 1) return false
  if (texts.length === 2) return texts[0] === undefined || NAME_TESTS.has(texts[0])
  if (texts.length === 3) return texts[1] === undefined || !BINARY_TESTS.has(texts[1])
  return true
}

/** Expansions that are always one number: `$#`, `$?`, `$$`, `${#x}`. */
const NUMBER = /^\$(?:[#?$]|\{#[A-Za-z_][A-Za-z0-9_]*\})$/

/** Whether a word is exactly one word after expansion: every expansion in it is quoted and none is `"$@"`-like, or is a number. */
function singleWord(word: Word): boolean {
  return word.parts.every((part) => part.kind === 'literal' || NUMBER.test(part.source) || (part.quoted === true && !part.source.includes('@')))
}
