/**
 * Commands that run another command, and what they run. `sudo rm x` runs `rm x`; `sh -c 'rm x'`
 * and `eval 'rm x'` run shell source; `find -exec rm {} ;` runs `rm {}`; `xargs rm` runs `rm`
 * with the items it reads, written `rm {}`. A wrapper whose options cannot be told apart from
 * the command it runs yields `unknown`, which the reader treats as a command it cannot name;
 * so do `source FILE` (a file's code, run in this shell) and builtins that evaluate text as code
 * (`evaluation.ts`). Anything not listed here is read as the command it is. `ssh host 'rm x'` is
 * only `ssh` (the command runs on the other side); what ssh, scp, sftp and rsync run here
 * (`-o ProxyCommand=…`, `rsync -e …`) is read by `remote.ts`, and the commands git runs
 * (`rebase -x`, `-c …`) by `git.ts`.
 */
import { compoundAssignments } from './arrays.js'
import { evaluatesCode } from './evaluation.js'
import { compileGlob } from './glob.js'
import { git } from './git.js'
import { arch, bwrap, capsh, env, flock, launched, LAUNCHERS, runcon, schedtool, setarch, SETARCH_NAMES, sg, typescript } from './launchers.js'
import { scanOptions, type OptionSpec } from './options.js'
import { packageRunner } from './packages.js'
import { remote } from './remote.js'
import { screen, tmux } from './sessions.js'
import { staticText, type Word } from './syntax.js'

/** What a wrapper runs. */
export type Wrapped =
  /** These words, as a command, with `NAME=value` settings the wrapper gives it (`env A=1 cmd`). */
  | { kind: 'command', words: Word[], settings: Word[] }
  /** Shell source: these words joined by spaces. */
  | { kind: 'script', words: Word[] }
  /** Shell source read from standard input (a here-document, if there is one). */
  | { kind: 'stdin' }
  /** Something this reader cannot work out. */
  | { kind: 'unknown' }

/** Which here-documents or here-strings feed the command: on standard input, on another descriptor. */
export interface Feed {
  stdin: boolean
  other: boolean
}

const EXEC: OptionSpec = { flags: 'cl', values: 'a' }

const XARGS: OptionSpec = {
  flags: '0prtx',
  values: 'adEILnPs',
  optional: 'eil',
  longFlags: ['null', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'open-tty', 'show-limits', 'eof', 'replace', 'max-lines'],
  longValues: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
}

/** `runuser -u USER [--] COMMAND…` runs the command itself; without `-u` it is `su`. */
const RUNUSER: OptionSpec = {
  flags: 'flmpP',
  values: 'cgGsuw',
  longFlags: ['fast', 'login', 'preserve-environment', 'pty'],
  longValues: ['command', 'group', 'supp-group', 'shell', 'session-command', 'user', 'whitelist-environment'],
  dash: true,
}

const WATCH: OptionSpec = { flags: 'bcdegptwx', values: 'nq', longFlags: ['beep', 'color', 'differences', 'errexit', 'chgexit', 'precise', 'no-title', 'no-wrap', 'exec'], longValues: ['interval', 'equexit'] }

/** Shells whose `-c` argument, or whose standard input, is a script. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'csh', 'tcsh', 'fish'])

/** The `find` actions that run a command, up to a `;` or `+` word. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir'])

/** The `find` primaries that take a value (`-newerXY` too; `-fprintf` takes two), which can be any word. */
const FIND_VALUES = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname',
  '-newer', '-anewer', '-cnewer', '-user', '-group', '-uid', '-gid', '-type', '-xtype', '-size', '-perm', '-mtime', '-atime', '-ctime',
  '-mmin', '-amin', '-cmin', '-used', '-links', '-inum', '-samefile', '-maxdepth', '-mindepth', '-printf', '-fprint', '-fprint0', '-fls',
  '-context', '-regextype', '-fstype', '-files0-from', '-fprintf'])

/** A word that stands for the items `xargs` appends. */
const ITEMS: Word = { parts: [{ kind: 'literal', text: '{}', quoted: true }] }

/** Paths that name standard input. */
const STDIN_FILES = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', '/proc/thread-self/fd/0'])

const UNKNOWN: Wrapped = { kind: 'unknown' }

/**
 * What the command `name` (already reduced to its base name) with `words` runs, if anything;
 * `feed` says which here-documents the command is given.
 */
export function wrapped(name: string, words: readonly Word[], feed: Feed): Wrapped[] {
  if (name === 'exec') return exec(words, feed)
  if (name === 'env') return env(words)
  if (Object.hasOwn(LAUNCHERS, name)) return launched(LAUNCHERS[name], words)
  if (SHELLS.has(name)) return shell(words, feed)
  if (SETARCH_NAMES.has(name)) return setarch(name, words)
  switch (name) {
    case 'flock': return flock(words)
    case 'script': return typescript(words)
    case 'sg': return sg(words)
    case 'capsh': return capsh(words)
    case 'runcon': return runcon(words)
    case 'schedtool': return schedtool(words)
    case 'arch': return arch(words)
    case 'bwrap': return bwrap(words)
    case 'screen': return screen(words)
    case 'tmux': return tmux(words)
    case 'npx':
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bunx':
    case 'bun': return packageRunner(name, words)
    case 'at':
    case 'batch': return at(words)
    case 'ssh':
    case 'scp':
    case 'sftp':
    case 'rsync': return remote(name, words)
    case 'git': return git(words)
    // `newgrp [-] [GROUP]` starts a shell, which reads standard input; its operand is a group.
    case 'newgrp': return [{ kind: 'stdin' }]
    // GNU parallel builds commands from its arguments, `:::` lists and standard input.
    case 'parallel':
    case 'sem': return [UNKNOWN]
    case 'eval': return words.length > 1 ? [{ kind: 'script', words: words.slice(1) }] : []
    case 'trap': return trap(words)
    case 'su': return su(words)
    case 'runuser': return runuser(words)
    case 'find': return find(words)
    case 'xargs': return xargs(words)
    case 'watch': return watch(words)
    case '.':
    case 'source': return source(words, feed)
    default: return evaluatesCode(name, words) ? [UNKNOWN, ...compoundAssignments(name, words).map(script)] : []
  }
}

/** Shell source in one word. */
const script = (word: Word): Wrapped => ({ kind: 'script', words: [word] })

/**
 * `exec [options] [COMMAND…]`. With no command but a here-document it makes that the input of
 * every later command (`exec <<< 'rm x'; bash`): this reader does not follow that, so it is unknown.
 */
function exec(words: readonly Word[], feed: Feed): Wrapped[] {
  const scan = scanOptions(words, EXEC)
  switch (scan.kind) {
    case 'found': return [{ kind: 'command', words: words.slice(scan.index), settings: scan.settings }]
    case 'none': return feed.stdin || feed.other ? [UNKNOWN] : []
    case 'unknown': return [UNKNOWN]
  }
}

/**
 * `bash [options] -c SCRIPT [name [args]]`, `bash [options] [-s]` (stdin), `bash FILE` (the file
 * is not read). A here-document given to `bash FILE` is read as the script all the same, since
 * the file may be standard input (`/dev/stdin`, `/dev/fd/0`, a link to it); one on another
 * descriptor makes the script unknown (`bash /dev/fd/3 3<<< …`).
 */
function shell(words: readonly Word[], feed: Feed): Wrapped[] {
  let script = false
  let stdin = false
  let i = 1
  for (; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (text === '--' || text === '-') {
      i++
      break
    }
    if (text.startsWith('--')) {
      // The start-up file of an interactive shell: a file, or code known only at run time (`<(…)`).
      if (text === '--rcfile' || text === '--init-file') i++
      if (i < words.length && staticText(words[i]) === undefined) return [UNKNOWN]
      continue
    }
    if (!/^[-+]./.test(text)) break
    for (const letter of text.slice(1)) {
      if (letter === 'c') script = true
      else if (letter === 's') stdin = true
      else if (letter === 'o' || letter === 'O') i++
    }
  }
  if (script) return i < words.length ? [{ kind: 'script', words: [words[i]] }] : []
  const file = !stdin && i < words.length
  return file && feed.other ? [{ kind: 'stdin' }, UNKNOWN] : [{ kind: 'stdin' }]
}

/**
 * `source FILE` / `. FILE` runs a file's code in this shell, where it can also redefine what later
 * commands mean: unknown, unless the file is standard input fed a here-document, which is read.
 */
function source(words: readonly Word[], feed: Feed): Wrapped[] {
  const at = words[1] && staticText(words[1]) === '--' ? 2 : 1
  if (at >= words.length) return []
  const file = staticText(words[at])
  return file !== undefined && STDIN_FILES.has(file) && feed.stdin && !feed.other ? [{ kind: 'stdin' }] : [UNKNOWN]
}

/** `trap [--] ACTION SIGNAL…`: the action runs later, on a signal or at exit. */
function trap(words: readonly Word[]): Wrapped[] {
  let i = 1
  const first = words[i] && staticText(words[i])
  if (first === '-l' || first === '-p' || first === '-lp' || first === '-pl') return []
  if (first === '--') i++
  if (i + 1 >= words.length) return []
  const action = staticText(words[i])
  return action === '-' || action === '' ? [] : [{ kind: 'script', words: [words[i]] }]
}

/**
 * `su [options] [-c COMMAND] [user]` (also `-lc COMMAND`, `-cCOMMAND`, `--command=…`,
 * `--session-command …`): only the command is read. `-s SHELL` makes any program the one that
 * runs it: unknown. With no command, the user's shell reads its commands from standard input.
 */
function su(words: readonly Word[]): Wrapped[] {
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (text === '--shell' || text.startsWith('--shell=')) return [UNKNOWN]
    if (text === '--command' || text === '--session-command') return i + 1 < words.length ? [{ kind: 'script', words: [words[i + 1]] }] : []
    const long = /^--(?:session-)?command=/.exec(text)
    if (long) return [{ kind: 'script', words: [literal(text.slice(long[0].length))] }]
    const cluster = /^-[A-Za-z]*?[cs]/.exec(text)
    if (cluster && !text.startsWith('--')) {
      if (cluster[0].endsWith('s')) return [UNKNOWN]
      const rest = text.slice(cluster[0].length)
      if (rest !== '') return [{ kind: 'script', words: [literal(rest)] }]
      return i + 1 < words.length ? [{ kind: 'script', words: [words[i + 1]] }] : []
    }
  }
  return [{ kind: 'stdin' }]
}

/**
 * `at [options] TIME` and `batch [options] [TIME]` run, later, the shell commands they read from
 * standard input (a here-document, if there is one) or from `-f FILE` (unknown); `-l`, `-r`, `-d`
 * and `-c` list, remove or print jobs instead. Options may come anywhere among the words.
 */
function at(words: readonly Word[]): Wrapped[] {
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (text === '--') break
    if (!/^-./.test(text)) continue
    for (let k = 1; k < text.length; k++) {
      if ('lrdc'.includes(text[k])) return []
      if (text[k] === 'f') return [UNKNOWN]
      // Queue, time and user: the value is the rest of the word or the next word.
      if ('qtu'.includes(text[k])) {
        if (k + 1 === text.length) i++
        break
      }
    }
  }
  return [{ kind: 'stdin' }]
}

/** `runuser -u USER [--] COMMAND…` runs the command itself; without `-u` it is read as `su`. */
function runuser(words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, RUNUSER)
  if (scan.kind === 'unknown') return [UNKNOWN]
  if (!scan.seen.has('-u') && !scan.seen.has('--user')) return su(words)
  return scan.kind === 'found' ? [{ kind: 'command', words: words.slice(scan.index), settings: scan.settings }] : []
}

const literal = (text: string): Word => ({ parts: [{ kind: 'literal', text, quoted: true }] })

/**
 * `find … -exec CMD ARGS… ;` (or `+`), once for every such action. A word find would read as a
 * primary that is known only at run time (`find . "$e" rm {} +`; not `"$HOME/src"`), or a glob
 * that could expand to one, may be `-exec`: unknown. So is a word that can split into several
 * (`$x` unquoted), except as the value of a primary. A word of a command known only at run time
 * may be the `;` that ends it, so the words after it are read as find's too.
 */
function find(words: readonly Word[]): Wrapped[] {
  const found: Wrapped[] = []
  let unknown = false
  let values = 0
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (values > 0) {
      values--
      unknown ||= !oneWord(words[i]) && (text === undefined || mayBe(words[i], FIND_EXEC))
      continue
    }
    if ((text === undefined && !inert(words[i])) || mayBe(words[i], FIND_EXEC)) {
      unknown = true
      continue
    }
    if (text === undefined) continue
    if (!FIND_EXEC.has(text)) {
      values = text === '-fprintf' ? 2 : FIND_VALUES.has(text) || /^-newer[aBcmt][aBcmt]$/.test(text) ? 1 : 0
      continue
    }
    let end = i + 1
    while (end < words.length && !isTerminator(words[end])) end++
    if (end > i + 1) found.push({ kind: 'command', words: words.slice(i + 1, end), settings: [] })
    const open = words.slice(i + 1, end).findIndex((word) => (staticText(word) === undefined && !inert(word)) || mayBe(word, TERMINATORS))
    if (open < 0) i = end
    else {
      i += 1 + open
      unknown ||= !oneWord(words[i])
    }
  }
  return unknown ? [...found, UNKNOWN] : found
}

const TERMINATORS = new Set([';', '+'])

/** Whether the word stays one word: no unquoted expansion (split) and no glob. */
function oneWord(word: Word): boolean {
  return word.parts.every((part) => part.quoted === true || (part.kind === 'literal' && !/[*?[]/.test(part.text)))
}

/**
 * Whether a word known only at run time is one word that can be no primary, `;` or `+`: it has a
 * `/` (`"$HOME/src"`), or starts with text other than `-`, `;` or `+` (`"x$n"`).
 */
function inert(word: Word): boolean {
  const first = word.parts[0]
  const slash = word.parts.some((part) => part.kind === 'literal' && part.text.includes('/'))
  return oneWord(word) && (slash || (first?.kind === 'literal' && first.text !== '' && !/^[-;+]/.test(first.text)))
}

/** Whether the word is a glob that could expand to one of `texts` (a file of that name). */
function mayBe(word: Word, texts: ReadonlySet<string>): boolean {
  if (staticText(word) === undefined || oneWord(word)) return false
  const glob = word.parts.map((part) => (part.kind === 'literal' ? (part.quoted ? part.text.replace(/[\\*?[\]{}]/g, '\\$&') : part.text.replace(/[\\{}]/g, '\\$&')) : '')).join('')
  try {
    const compiled = compileGlob(glob)
    return [...texts].some((text) => compiled.test(text))
  } catch {
    return true
  }
}

const isTerminator = (word: Word) => {
  const text = staticText(word)
  return text === ';' || text === '+'
}

/** `xargs [options] [CMD [ARGS…]]` runs CMD (default `echo`) with the items it reads appended. */
function xargs(words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, XARGS)
  switch (scan.kind) {
    case 'unknown': return [UNKNOWN]
    case 'none': return []
    case 'found': {
      const replaces = scan.seen.has('-I') || scan.seen.has('-i') || scan.seen.has('--replace')
      const command = words.slice(scan.index)
      return [{ kind: 'command', words: replaces ? command : [...command, ITEMS], settings: [] }]
    }
  }
}

/** `watch [options] CMD…` hands the words to `sh -c` joined by spaces; with `-x` it runs them. */
function watch(words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, WATCH)
  switch (scan.kind) {
    case 'unknown': return [UNKNOWN]
    case 'none': return []
    case 'found': {
      const rest = words.slice(scan.index)
      return [scan.seen.has('-x') || scan.seen.has('--exec') ? { kind: 'command', words: rest, settings: [] } : { kind: 'script', words: rest }]
    }
  }
}
