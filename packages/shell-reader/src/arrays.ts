/**
 * Compound array assignments that bash parses at run time. A declaration builtin (`declare`,
 * `typeset`, `local`, `export`, `readonly`) given `NAME=value` parses the value again, as
 * `NAME=(…)`, and expands its words, when the value once expanded starts with `(` and the
 * variable is an array: made one by `-a`/`-A` in the same command, or already one. So
 * `declare -a 'x=($(rm y))'` and `v='($(rm y))'; y=(); declare y=$v` run `rm y` although the line
 * shows only text. This module says which arguments may be parsed so, and which variables a
 * command makes arrays; the reader checks the second kind against the whole line.
 */
import { staticText, type Word } from './syntax.js'

/** The builtins that take `NAME=value` arguments. */
export const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly'])

/** Bash's own arrays: a declaration finds them arrays already. */
export const BASH_ARRAYS = new Set(['BASH_ALIASES', 'BASH_ARGC', 'BASH_ARGV', 'BASH_CMDS', 'BASH_LINENO',
  'BASH_REMATCH', 'BASH_SOURCE', 'BASH_VERSINFO', 'COMP_WORDS', 'COPROC', 'DIRSTACK', 'FUNCNAME', 'GROUPS',
  'MAPFILE', 'PIPESTATUS'])

/** An option word of a declaration that gives the array attribute (`-a`, `-A`, `-ga`, `-Ax`). */
const ARRAY_FLAG = /^-[A-Za-z]*[aA]/
const ASSIGNED = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/

/**
 * How an argument's value starts: with `(` (`'x=(…)'`, parsed again if `x` is an array), with an
 * expansion that may hold `(` (`x=$v`), or otherwise (never parsed again). A `(…)` written
 * unquoted in the source was parsed as words already, and its commands are read where they stand.
 */
export function valueStart(word: Word): 'paren' | 'expansion' | 'text' {
  let lead = ''
  let at = 0
  for (; at < word.parts.length; at++) {
    const part = word.parts[at]
    if (part.kind === 'dynamic') break
    lead += part.text
  }
  const match = ASSIGNED.exec(lead)
  if (!match) return 'text'
  if (lead.length > match[0].length) return lead[match[0].length] === '(' ? 'paren' : 'text'
  const next = word.parts[at]
  return next === undefined || (next.kind === 'dynamic' && next.array === true) ? 'text' : 'expansion'
}

/** Whether a declaration's words give the array attribute. */
function arrayFlag(words: readonly Word[]): boolean {
  return words.slice(1).some((word) => ARRAY_FLAG.test(staticText(word) ?? ''))
}

/**
 * Whether bash parses a declaration's argument again whatever the rest of the line does: a value
 * that starts with `(`, or one that starts with an expansion in a declaration with `-a`/`-A`.
 */
export function reparsed(words: readonly Word[], word: Word): boolean {
  const start = valueStart(word)
  return start === 'paren' || (start === 'expansion' && arrayFlag(words))
}

/**
 * The variables whose argument in the declaration `name` bash parses again if they are arrays
 * already (`declare y=$v` after `y=()`); none for other commands.
 */
export function reparsedIfArray(name: string, words: readonly Word[]): string[] {
  if (!DECLARATIONS.has(name) || arrayFlag(words)) return []
  return words.slice(1).filter((word) => valueStart(word) === 'expansion').map(variableOf)
}

/**
 * The arguments of a declaration that bash parses again and whose text is known (`x=($(rm y))`),
 * to be read as shell source; none for other commands.
 */
export function compoundAssignments(name: string, words: readonly Word[]): Word[] {
  if (!DECLARATIONS.has(name)) return []
  return words.slice(1).filter((word) => reparsed(words, word) && /^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(staticText(word) ?? ''))
}

/**
 * The variables a command makes arrays: a declaration with `-a`/`-A` or with a `(…)` value,
 * `read -a NAME`, `mapfile`/`readarray` (`MAPFILE` by default). `assignments` are the
 * `NAME=(…)` and `NAME[i]=…` words of a statement or a command's prefixes.
 */
export function arraysMade(name: string | undefined, words: readonly Word[], assignments: readonly Word[]): string[] {
  const made = assignments.filter(isArrayAssignment).map(variableOf)
  if (name === undefined) return made
  const texts = words.slice(1).map((word) => staticText(word) ?? '')
  if (DECLARATIONS.has(name)) {
    const all = arrayFlag(words)
    words.slice(1).forEach((word, i) => {
      if (!texts[i].startsWith('-') && !texts[i].startsWith('+') && (all || isArrayAssignment(word))) made.push(variableOf(word))
    })
  } else if (name === 'read') {
    texts.forEach((text, i) => {
      const option = /^-[A-Za-z]*a(.*)$/.exec(text)
      if (option) made.push(option[1] !== '' ? option[1] : texts[i + 1] ?? '')
    })
  } else if (name === 'mapfile' || name === 'readarray') {
    const operand = texts.filter((text) => /^[A-Za-z_]/.test(text)).at(-1)
    made.push(operand ?? 'MAPFILE')
  }
  return made
}

/** `x=(…)`, `x+=(…)` or `x[i]=…`. */
function isArrayAssignment(word: Word): boolean {
  const first = word.parts[0]
  if (first?.kind === 'dynamic') return /^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=\()/.test(first.source)
  return word.parts.some((part) => part.kind === 'dynamic' && part.array === true) || /^[A-Za-z_][A-Za-z0-9_]*\[/.test(staticText(word) ?? first?.text ?? '')
}

/** The variable an argument names (`x` of `x=1`, `x[0]=1`, `x`). */
function variableOf(word: Word): string {
  const first = word.parts[0]
  const text = first === undefined ? '' : first.kind === 'literal' ? first.text : first.source
  return /^[A-Za-z_][A-Za-z0-9_]*/.exec(text)?.[0] ?? ''
}
