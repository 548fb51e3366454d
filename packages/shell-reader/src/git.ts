/**
 * git, which runs commands it is given on the command line (git(1) and each command's manual):
 *
 * - before the subcommand, `-c name=value` and `--config-env=…` can set any configuration
 *   (`core.sshCommand`, `core.pager`, `core.fsmonitor`, `alias.x=!cmd`, `credential.helper`…), and
 *   `--exec-path=DIR` picks the programs git runs: unknown. `-C`, `--git-dir`, `--work-tree`,
 *   `--namespace`, `--super-prefix` and `--attr-source` take a value; another option, or a word
 *   known only at run time before the subcommand, is unknown.
 * - `rebase -x CMD` (`--exec`, also in a cluster, `-ix CMD`; `-X` is a strategy option),
 *   `difftool -x CMD` (`--extcmd`), `grep -OPAGER` (`--open-files-in-pager=`), `filter-branch`'s
 *   `--setup` and `--*-filter` (not `--subdirectory-filter`), `submodule foreach CMD…`, the
 *   `--upload-pack`/`--receive-pack`/`--exec` programs of `clone`, `fetch`, `pull`, `ls-remote`,
 *   `push` and `archive` (run through the local shell when the repository is a path) and
 *   `send-email --to-cmd`/`--cc-cmd`/`--header-cmd`/`--sendmail-cmd`: shell source.
 *   `send-email --smtp-server=/path` runs that program, and `bisect run CMD ARGS…` a command.
 * - `clone -c`/`--config` (configuration in effect during the clone) and `--template` (hooks
 *   that run during it) are unknown.
 *
 * These commands read options anywhere (`git rebase main -x 'rm x'`); long options may be
 * abbreviated, and any prefix of one that runs something is read as it. A word known only at run
 * time, or a glob, that could be an option of one of them is unknown. Configuration files,
 * aliases and hooks already in the repository are not on the command line, and are not read.
 */
import { mayBeOption, splits } from './options.js'
import { staticText, type Word } from './syntax.js'
import type { Wrapped } from './wrappers.js'

const UNKNOWN: Wrapped = { kind: 'unknown' }

/** What an option's value is: of no consequence, shell source, unknown, or a program when it is a path. */
type Effect = 'value' | 'script' | 'unknown' | 'program'

/** The options of one git command that matter here; other short letters and long names are flags. */
interface Spec {
  /** `optional`: a value that can only be attached, of no consequence; `inline`: shell source, only attached. */
  short?: Record<string, Effect | Optional>
  long?: Record<string, Effect | Optional>
  /** `-name` is a long option too (Perl's Getopt::Long). */
  singleDash?: true
}

type Optional = 'optional' | 'inline'

const values = (names: string): Record<string, Effect> => Object.fromEntries(names.split(' ').map((name) => [name, 'value']))

/** The commands whose options run something, by name. */
const SPECS: Record<string, Spec> = {
  rebase: { short: { x: 'script', s: 'value', X: 'value', C: 'value', S: 'optional' }, long: { exec: 'script', ...values('onto strategy strategy-option whitespace empty') } },
  difftool: { short: { x: 'script', t: 'value' }, long: { extcmd: 'script', tool: 'value' } },
  // `-O` alone opens the files in the configured pager; `-OPAGER` in that one, through the shell.
  grep: { short: { O: 'inline', A: 'value', B: 'value', C: 'value', e: 'value', f: 'value', m: 'value' }, long: { 'open-files-in-pager': 'inline', ...values('context after-context before-context max-count max-depth threads') } },
  clone: {
    short: { u: 'script', c: 'unknown', o: 'value', b: 'value', j: 'value' },
    long: { 'upload-pack': 'script', config: 'unknown', template: 'unknown', ...values('origin branch depth reference reference-if-able separate-git-dir filter jobs shallow-since shallow-exclude server-option bundle-uri ref-format revision') },
  },
  fetch: { long: { 'upload-pack': 'script' } },
  pull: { long: { 'upload-pack': 'script' } },
  'ls-remote': { long: { 'upload-pack': 'script', exec: 'script' } },
  push: { short: { o: 'value' }, long: { 'receive-pack': 'script', exec: 'script', ...values('repo push-option') } },
  archive: { short: { o: 'value' }, long: { exec: 'script', ...values('remote format prefix output') } },
  'send-email': {
    long: {
      'to-cmd': 'script', 'cc-cmd': 'script', 'header-cmd': 'script', 'sendmail-cmd': 'script', 'smtp-server': 'program',
      ...values('to cc bcc from subject in-reply-to reply-to smtp-server-port smtp-server-option smtp-user smtp-pass smtp-encryption smtp-domain smtp-auth identity confirm suppress-cc transfer-encoding 8bit-encoding compose-encoding batch-size relogin-delay envelope-sender smtp-ssl-cert-path'),
    },
    singleDash: true,
  },
}

/** Global options that take a value, attached with `=` or as the next word (`-C` only the next word). */
const GLOBAL_VALUES = new Set(['--git-dir', '--work-tree', '--namespace', '--super-prefix', '--attr-source'])
const GLOBAL_FLAGS = new Set(['-p', '-P', '--paginate', '--no-pager', '--no-replace-objects', '--no-lazy-fetch', '--no-optional-locks',
  '--no-advice', '--bare', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs'])
/** Global options that print something and run no command. */
const GLOBAL_EXITS = new Set(['-v', '--version', '-h', '--help', '--exec-path', '--html-path', '--man-path', '--info-path'])

/** What `git [global options] COMMAND [ARGS…]` runs besides itself. */
export function git(words: readonly Word[]): Wrapped[] {
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (text === '-c' || text.startsWith('--config-env') || text.startsWith('--exec-path=')) return [UNKNOWN]
    if (GLOBAL_EXITS.has(text) || text.startsWith('--list-cmds=')) return []
    if (GLOBAL_FLAGS.has(text)) continue
    const name = text.split('=', 1)[0]
    if (text === '-C' || (GLOBAL_VALUES.has(name) && !text.includes('='))) {
      i++
      if (i < words.length && splits(words[i])) return [UNKNOWN]
      continue
    }
    if (GLOBAL_VALUES.has(name)) continue
    if (text.startsWith('-')) return [UNKNOWN]
    return subcommand(text, words.slice(i))
  }
  return []
}

/** What one git command (its name first) runs. */
function subcommand(name: string, words: readonly Word[]): Wrapped[] {
  switch (name) {
    case 'bisect': return bisect(words)
    case 'submodule': return submodule(words)
    case 'filter-branch': return filterBranch(words)
    default: return Object.hasOwn(SPECS, name) ? options(words, SPECS[name]) : []
  }
}

/** Reads a command's options wherever they are, up to `--`, for what their values run. */
function options(words: readonly Word[], spec: Spec): Wrapped[] {
  const found: Wrapped[] = []
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined || splits(words[i])) {
      if (mayBeOption(words[i])) return [...found, UNKNOWN]
      continue
    }
    if (text === '--') break
    if (!text.startsWith('-') || text === '-') continue
    const long = text.startsWith('--') ? text.slice(2) : spec.singleDash && text.length > 2 ? text.slice(1) : undefined
    if (long !== undefined) {
      const eq = long.indexOf('=')
      const effect = longEffect(long.slice(0, eq < 0 ? undefined : eq), spec)
      if (effect === undefined || effect === 'optional') continue
      // An optional value is only ever attached (`--open-files-in-pager=less`).
      if (effect === 'inline') {
        if (eq >= 0) found.push(...read('script', literal(long.slice(eq + 1))))
        continue
      }
      const value = eq < 0 ? words[++i] : literal(long.slice(eq + 1))
      if (value === undefined) continue
      if (eq < 0 && splits(value)) return [...found, UNKNOWN]
      found.push(...read(effect, value))
      continue
    }
    for (let k = 1; k < text.length; k++) {
      const effect = spec.short?.[text[k]]
      if (effect === undefined) continue
      const attached = k + 1 < text.length
      if (effect === 'optional' || (effect === 'inline' && !attached)) break
      if (effect === 'inline') {
        found.push(...read('script', literal(text.slice(k + 1))))
        break
      }
      const value = attached ? literal(text.slice(k + 1)) : words[++i]
      if (value !== undefined) {
        if (!attached && splits(value)) return [...found, UNKNOWN]
        found.push(...read(effect, value))
      }
      break
    }
  }
  return found
}

/**
 * The effect of the long option `name`: its own, or, for a prefix of an option that runs
 * something (git takes any unambiguous prefix), that option's; undefined for a flag.
 */
function longEffect(name: string, spec: Spec): Effect | Optional | undefined {
  const long = spec.long ?? {}
  if (Object.hasOwn(long, name)) return long[name]
  if (name === '') return undefined
  const runs = Object.keys(long).find((option) => option.startsWith(name) && long[option] !== 'value' && long[option] !== 'optional')
  return runs === undefined ? undefined : long[runs]
}

/** What an option's value runs. */
function read(effect: Effect, value: Word): Wrapped[] {
  switch (effect) {
    case 'value': return []
    case 'script': return [{ kind: 'script', words: [value] }]
    case 'unknown': return [UNKNOWN]
    case 'program': {
      const text = staticText(value)
      return text !== undefined && !text.includes('/') ? [] : [{ kind: 'command', words: [value], settings: [] }]
    }
  }
}

/** `git bisect run CMD ARGS…` runs the command at every step. */
function bisect(words: readonly Word[]): Wrapped[] {
  if (words.length < 2) return []
  const sub = staticText(words[1])
  if (sub === undefined) return [UNKNOWN]
  return sub === 'run' && words.length > 2 ? [{ kind: 'command', words: words.slice(2), settings: [] }] : []
}

/**
 * `git submodule [--quiet] [--cached] foreach [--recursive] [--] COMMAND…` runs the command
 * through the shell in every submodule (several words: the first is shell source, the others its
 * arguments; read joined).
 */
function submodule(words: readonly Word[]): Wrapped[] {
  let i = 1
  let foreach = false
  for (; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (!foreach && (text === '-q' || text === '--quiet' || text === '--cached')) continue
    if (!foreach && text === 'foreach') {
      foreach = true
      continue
    }
    if (!foreach) return text.startsWith('-') && text !== '--' ? [UNKNOWN] : []
    if (text === '-q' || text === '--quiet' || text === '--recursive') continue
    if (text === '--') i++
    else if (text.startsWith('-')) return [UNKNOWN]
    break
  }
  return foreach && i < words.length ? [{ kind: 'script', words: words.slice(i) }] : []
}

/** `git filter-branch` options whose value it evaluates as shell code. */
const FILTERS = new Set(['--setup', '--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'])
const FILTER_BRANCH_FLAGS = new Set(['-f', '--force', '--prune-empty', '--remap-to-ancestor'])

/**
 * `git filter-branch [options] [--] [rev-list options…]`: every option but the flags takes the
 * next word, and the filters are shell code it evaluates.
 */
function filterBranch(words: readonly Word[]): Wrapped[] {
  const found: Wrapped[] = []
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return mayBeOption(words[i]) ? [...found, UNKNOWN] : found
    if (text === '--' || !text.startsWith('-')) break
    if (FILTER_BRANCH_FLAGS.has(text)) continue
    // The script reads no `--name=value`; such a word is read as the filter all the same.
    const eq = text.indexOf('=')
    if (eq >= 0) {
      if (FILTERS.has(text.slice(0, eq))) found.push({ kind: 'script', words: [literal(text.slice(eq + 1))] })
      continue
    }
    const value = words[++i]
    if (value !== undefined && FILTERS.has(text)) found.push({ kind: 'script', words: [value] })
  }
  return found
}

const literal = (text: string): Word => ({ parts: [{ kind: 'literal', text, quoted: true }] })
