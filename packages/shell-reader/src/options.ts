/**
 * Skips a command's own options to find the command it runs, the way its manual describes
 * them. Only options listed in the spec are understood: an unknown option, or a word before the
 * wrapped command that is only known at run time (it could expand to an option, or to several
 * words), makes the wrapped command unknown — never a guess.
 */
import { staticText, type Word } from './syntax.js'

/** The options of one wrapper command. Short options are single letters. */
export interface OptionSpec {
  /** Short options without a value, e.g. `'inv'`. */
  flags?: string
  /** Short options that take a value, attached (`-n10`) or as the next word (`-n 10`). */
  values?: string
  /** Short options whose value, if any, must be attached (`-i{}`, `-l5`). */
  optional?: string
  /** Long options without a value (`--foreground`); `--name=value` is accepted for these too. */
  longFlags?: readonly string[]
  /** Long options that take a value (`--signal=KILL` or `--signal KILL`). */
  longValues?: readonly string[]
  /** A lone `-` is an option (`env -` is `env -i`). */
  dash?: boolean
  /** `NAME=value` words before the command are settings, not the command (`env`, `sudo`). */
  assignments?: boolean
  /** `-10` is an option (`nice`). */
  numeric?: boolean
  /** Operands that come before the command (`timeout DURATION`, `chroot DIR`). */
  operands?: number
  /**
   * An operand before the command that may be left out (`chrt [PRIORITY] COMMAND`): a word that
   * matches is that operand, any other is the command.
   */
  optionalOperand?: RegExp
  /** Every `--name` and `--name=value` is an option of one word (`valgrind`, `firejail`). */
  longAny?: boolean
}

/**
 * Where the wrapped command starts, which options were seen (and the values they took) and
 * which settings (`env A=1`) come before it, or why it cannot be told.
 */
export type Scan =
  | { kind: 'found', index: number, seen: Set<string>, values: OptionValue[], settings: Word[] }
  | { kind: 'none', seen: Set<string>, values: OptionValue[] }
  | { kind: 'unknown' }

/** An option that took a value (`-c`, `--call`), and that value, in the order they came. */
export interface OptionValue {
  option: string
  value: Word
}

/**
 * Scans `words` (the wrapper's name first) for the wrapped command, as getopt does with a
 * leading `+`: options up to `--` or the first other word, then the operands, then settings.
 */
export function scanOptions(words: readonly Word[], spec: OptionSpec): Scan {
  const seen = new Set<string>()
  const values: OptionValue[] = []
  let i = 1
  while (i < words.length) {
    const text = staticText(words[i])
    if (text === undefined) return { kind: 'unknown' }
    if (text === '--') {
      i++
      break
    }
    const step = optionWords(text, spec, seen)
    if (step === 'none') break
    if (step === undefined) return { kind: 'unknown' }
    if (step.option !== undefined) {
      const value = step.attached !== undefined ? literal(step.attached) : words[i + 1]
      if (value !== undefined) values.push({ option: step.option, value })
    }
    i += step.words
  }
  i = Math.min(i + (spec.operands ?? 0), words.length)
  if (spec.optionalOperand && i < words.length && spec.optionalOperand.test(staticText(words[i]) ?? '')) i++
  const settingsStart = i
  while (spec.assignments && i < words.length && staticText(words[i])?.includes('=')) i++
  if (i >= words.length) return { kind: 'none', seen, values }
  // Every word before the command must itself be known (an option's value, an operand, a setting).
  for (let j = 1; j < i; j++) if (staticText(words[j]) === undefined) return { kind: 'unknown' }
  return { kind: 'found', index: i, seen, values, settings: words.slice(settingsStart, i) }
}

/**
 * How many words an option takes up and, when it takes a value, its name (`-c`, `--call`) and
 * the value if it is in the same word (`-crm x`, `--call=rm x`); else the value is the next word.
 */
interface Step {
  words: number
  option?: string
  attached?: string
}

/** The words an option takes up; `'none'` when `text` is not an option; undefined when unknown. */
function optionWords(text: string, spec: OptionSpec, seen: Set<string>): Step | 'none' | undefined {
  if (text === '-') {
    if (!spec.dash) return 'none'
    seen.add('-')
    return { words: 1 }
  }
  if (text.startsWith('--')) return longOption(text.slice(2), spec, seen)
  if (!text.startsWith('-')) return 'none'
  if (spec.numeric && /^-\d+$/.test(text)) return { words: 1 }
  return shortOptions(text.slice(1), spec, seen)
}

/** The words a long option takes up, or undefined when it is not in the spec. */
function longOption(body: string, spec: OptionSpec, seen: Set<string>): Step | undefined {
  const eq = body.indexOf('=')
  const name = eq < 0 ? body : body.slice(0, eq)
  if (spec.longFlags?.includes(name) || (spec.longAny && name !== '')) {
    seen.add(`--${name}`)
    return { words: 1 }
  }
  if (spec.longValues?.includes(name)) {
    seen.add(`--${name}`)
    return eq < 0 ? { words: 2, option: `--${name}` } : { words: 1, option: `--${name}`, attached: body.slice(eq + 1) }
  }
  return undefined
}

/** The words a cluster of short options (`-abc`, `-n10`) takes up, or undefined. */
function shortOptions(cluster: string, spec: OptionSpec, seen: Set<string>): Step | undefined {
  for (let k = 0; k < cluster.length; k++) {
    const letter = cluster[k]
    seen.add(`-${letter}`)
    if (spec.flags?.includes(letter)) continue
    if (spec.optional?.includes(letter)) return { words: 1 }
    if (spec.values?.includes(letter)) {
      return k + 1 < cluster.length ? { words: 1, option: `-${letter}`, attached: cluster.slice(k + 1) } : { words: 2, option: `-${letter}` }
    }
    return undefined
  }
  return { words: 1 }
}

const literal = (text: string): Word => ({ parts: [{ kind: 'literal', text, quoted: true }] })

/**
 * Substitutions that print the current branch's name, which git never lets start with `-` (nor
 * hold a space or a glob character): `git push -u origin "$(git branch --show-current)"`.
 */
const BRANCH_NAMES = new Set(['$(git branch --show-current)', '$(git rev-parse --abbrev-ref HEAD)', '$(git symbolic-ref --short HEAD)'])

/**
 * Whether a word known only at run time, or a glob, could be an option of a program that reads
 * options anywhere (`rsync`, `git rebase`) or before its operands (`ssh`, `scp`): it could start
 * with `-` (it starts with an expansion, `"$x"`, or a glob character, `*.c` — a file may be named
 * `-e sh x.sh`), or split into several words (`$x` unquoted). `"user@$host"`, `./*.c` and
 * `"src/$x"` cannot, nor a quoted `"$(git branch --show-current)"` (`BRANCH_NAMES`).
 */
export function mayBeOption(word: Word): boolean {
  if (word.parts.some((part) => part.kind === 'dynamic' && part.quoted !== true)) return true
  for (const part of word.parts) {
    if (part.kind === 'dynamic') return !BRANCH_NAMES.has(part.source)
    if (part.text === '') continue
    return !part.quoted && /^[*?[]/.test(part.text)
  }
  return false
}

/** Whether a word can become several words, or none: an unquoted expansion (split) or a glob. */
export function splits(word: Word): boolean {
  return word.parts.some((part) => part.quoted !== true && (part.kind === 'dynamic' || /[*?[]/.test(part.text)))
}
