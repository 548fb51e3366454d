/**
 * Remote shells and copies: the command `ssh host 'rm x'` names runs on the other machine, and is
 * not read. But some of their options run a command here, on this machine, before or after
 * connecting, and those are read:
 *
 * - `ssh`/`scp`/`sftp -o ProxyCommand=…`, `-o LocalCommand=…` (run when `PermitLocalCommand` is
 *   on) and `-o KnownHostsCommand=…` (ssh_config(5)): shell source. ssh runs the first two with
 *   the user's shell; it splits the third into words itself, which reading it as shell source
 *   only over-reads. An option is `Key=Value`, `Key Value` or `Key = Value`, the key in any case.
 *   `-F FILE` (a configuration file may hold any of these; not `-F none` or `-F /dev/null`),
 *   `-o Include=…`, `-o Match=…`, and the options that load a library or name a program ssh runs
 *   (`-I`, `PKCS11Provider`, `SecurityKeyProvider`, `XAuthLocation`) are unknown.
 * - `scp`/`sftp -S PROGRAM` runs that program to connect, and `-D SERVER` runs a local sftp
 *   server instead of connecting: a command (sftp splits its `-D` into words: shell source).
 * - `sftp` reads its commands from standard input or `-b FILE`, and `!command` among them runs in
 *   the local shell: always unknown.
 * - `rsync -e COMMAND` (`--rsh`) runs the command to connect (rsync splits it into words; it is
 *   read as shell source); `--daemon` starts a server that runs the commands of its configuration.
 *   `--rsync-path` names the program on the other side, and is not read.
 *
 * ssh, scp and sftp read their options before their operands (ssh also reads options again after
 * its destination); rsync reads them anywhere. A word known only at run time, or a glob, where an
 * option could be (`ssh "$host"`, `rsync *.c host:`) may be one (`-oProxyCommand=…`, a file named
 * `-e sh x.sh`): unknown. `--` ends the options, and the words after it are operands.
 */
import { mayBeOption, splits } from './options.js'
import { staticText, type Word } from './syntax.js'
import type { Wrapped } from './wrappers.js'

const UNKNOWN: Wrapped = { kind: 'unknown' }

/** How a program reads one short option: a flag, or what its value is. */
type Effect = 'value' | 'option' | 'config' | 'library' | 'program' | 'server' | 'batch'

/** Short options of one program (`getopt` letters), with the effect of those that take a value. */
interface Letters {
  flags: string
  values: Record<string, Effect>
}

/** A letter that takes a value of no consequence here. */
const plain = (letters: string): Record<string, Effect> => Object.fromEntries([...letters].map((letter) => [letter, 'value']))

/** ssh(1), OpenSSH 9: `ssh [options] destination [options] [command [argument…]]`. */
const SSH: Letters = { flags: '1246afgknqstvxACGKMNTVXYy', values: { ...plain('bceilmpBDEJLOPQRSWw'), o: 'option', F: 'config', I: 'library' } }
/** scp(1): `-S program` connects, `-D sftp_server_path` runs a local server (each a program, not split). */
const SCP: Letters = { flags: '12346ABCTdfOpqRrstv', values: { ...plain('cilJPX'), o: 'option', F: 'config', S: 'program', D: 'program' } }
/** sftp(1): as scp, but sftp splits `-D` into words; `-b batchfile` holds commands. */
const SFTP: Letters = { flags: '1246AafhNpqrvC', values: { ...plain('cilsBJPRX'), o: 'option', F: 'config', S: 'program', D: 'server', b: 'batch' } }

/** What `ssh`, `scp`, `sftp` or `rsync` runs on this machine, from its words (its name first). */
export function remote(name: string, words: readonly Word[]): Wrapped[] {
  switch (name) {
    case 'ssh': return ssh(words)
    case 'scp': return scanned(words, 1, SCP)?.found ?? [UNKNOWN]
    case 'sftp': return [...scanned(words, 1, SFTP)?.found ?? [], UNKNOWN]
    case 'rsync': return rsync(words)
    default: return []
  }
}

/**
 * `ssh [options] destination [command…]`. After the destination ssh reads options again (`ssh
 * host -o ProxyCommand=…`), unless `--` came before it; the command after them runs on the other
 * side.
 */
function ssh(words: readonly Word[]): Wrapped[] {
  const first = scanned(words, 1, SSH)
  if (first === undefined) return [UNKNOWN]
  const destination = first.next
  if (first.terminated || destination + 1 >= words.length) return first.found
  const second = scanned(words, destination + 1, SSH)
  return second === undefined ? [...first.found, UNKNOWN] : [...first.found, ...second.found]
}

/** What the options from `start` run, where they end and whether `--` ended them; undefined when unknown. */
interface Scanned {
  found: Wrapped[]
  next: number
  terminated: boolean
}

/** Reads options as getopt does for OpenSSH (no reordering): up to `--` or the first operand. */
function scanned(words: readonly Word[], start: number, letters: Letters): Scanned | undefined {
  const found: Wrapped[] = []
  let i = start
  for (; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined || splits(words[i])) {
      if (mayBeOption(words[i])) return undefined
      break
    }
    if (text === '--') return { found, next: i + 1, terminated: true }
    if (!text.startsWith('-') || text === '-') break
    for (let k = 1; k < text.length; k++) {
      const letter = text[k]
      if (letters.flags.includes(letter)) continue
      if (!Object.hasOwn(letters.values, letter)) return undefined
      const attached = k + 1 < text.length
      const value = attached ? literal(text.slice(k + 1)) : words[++i]
      if (value !== undefined) {
        if (!attached && splits(value)) return undefined
        found.push(...effect(letters.values[letter], value))
      }
      break
    }
  }
  return { found, next: i, terminated: false }
}

/** What an option's value runs. */
function effect(kind: Effect, value: Word): Wrapped[] {
  const text = staticText(value)
  switch (kind) {
    case 'value': return []
    case 'option': return text === undefined ? [UNKNOWN] : sshOption(text)
    case 'config': return text === 'none' || text === '/dev/null' ? [] : [UNKNOWN]
    case 'library':
    case 'batch': return [UNKNOWN]
    case 'program': return [{ kind: 'command', words: [value], settings: [] }]
    case 'server': return [{ kind: 'script', words: [value] }]
  }
}

/** ssh_config keywords (lower case) whose value is a command this machine runs through the shell. */
const COMMANDS = new Set(['proxycommand', 'localcommand', 'knownhostscommand'])
/** Keywords that read another file, or load or run a program this reader cannot read. */
const OPAQUE = new Set(['include', 'match', 'pkcs11provider', 'securitykeyprovider', 'xauthlocation'])

/**
 * One `-o` option, read as ssh reads a configuration line: the keyword up to whitespace or `=`,
 * then the value after any whitespace and `=`. A keyword with other characters (quotes) is unknown.
 */
function sshOption(text: string): Wrapped[] {
  const line = text.replace(/^[ \t\r\n]+/, '')
  const key = /^[^ \t\r\n=]*/.exec(line)?.[0] ?? ''
  if (!/^[A-Za-z0-9]+$/.test(key)) return [UNKNOWN]
  const keyword = key.toLowerCase()
  if (OPAQUE.has(keyword)) return [UNKNOWN]
  if (!COMMANDS.has(keyword)) return []
  const value = line.slice(key.length).replace(/^[ \t\r\n=]+/, '')
  // `ProxyCommand none` turns the option off.
  if (keyword === 'proxycommand' && value === 'none') return []
  return [{ kind: 'script', words: [literal(value)] }]
}

/** rsync's short options (rsync(1), 3.2); these letters take a value, the rest of the word or the next word. */
const RSYNC_FLAGS = 'vqcarRbudlLkKHpEAXogDtUNOJSnWxyCFzPhims80469VI'
const RSYNC_VALUES = 'eBfMT@'
/** rsync's long options that take a value, which may be the next word. */
const RSYNC_LONG = new Set(['rsh', 'rsync-path', 'block-size', 'filter', 'remote-option', 'temp-dir', 'modify-window', 'info', 'debug',
  'stderr', 'max-alloc', 'backup-dir', 'suffix', 'chmod', 'chown', 'usermap', 'groupmap', 'copy-as', 'checksum-choice', 'cc',
  'compress-choice', 'zc', 'compress-level', 'zl', 'skip-compress', 'max-delete', 'max-size', 'min-size', 'partial-dir', 'compare-dest',
  'copy-dest', 'link-dest', 'exclude', 'exclude-from', 'include', 'include-from', 'files-from', 'address', 'port', 'sockopts',
  'out-format', 'log-file', 'log-file-format', 'password-file', 'early-input', 'bwlimit', 'stop-after', 'stop-at', 'time-limit',
  'write-batch', 'only-write-batch', 'read-batch', 'protocol', 'iconv', 'timeout', 'contimeout', 'outbuf', 'config', 'dparam'])

/**
 * `rsync [options] SRC… DEST`, options anywhere among the operands (popt reorders them): the
 * command of `-e`/`--rsh`; `--daemon` is unknown.
 */
function rsync(words: readonly Word[]): Wrapped[] {
  const found: Wrapped[] = []
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined || splits(words[i])) {
      if (mayBeOption(words[i])) return [...found, UNKNOWN]
      continue
    }
    if (text === '--') break
    if (text.startsWith('--')) {
      const eq = text.indexOf('=')
      const name = text.slice(2, eq < 0 ? undefined : eq)
      if (name === 'daemon') return [...found, UNKNOWN]
      if (!RSYNC_LONG.has(name)) continue
      const value = eq < 0 ? words[++i] : literal(text.slice(eq + 1))
      if (value !== undefined && eq < 0 && splits(value)) return [...found, UNKNOWN]
      if (name === 'rsh' && value !== undefined) found.push({ kind: 'script', words: [value] })
      continue
    }
    if (!text.startsWith('-') || text === '-') continue
    for (let k = 1; k < text.length; k++) {
      const letter = text[k]
      if (RSYNC_FLAGS.includes(letter)) continue
      if (!RSYNC_VALUES.includes(letter)) return [...found, UNKNOWN]
      // popt takes the rest of the word (after one `=`), or the next word.
      const value = k + 1 < text.length ? literal(text.slice(text[k + 1] === '=' ? k + 2 : k + 1)) : words[++i]
      if (value !== undefined && k + 1 === text.length && splits(value)) return [...found, UNKNOWN]
      if (letter === 'e' && value !== undefined) found.push({ kind: 'script', words: [value] })
      break
    }
  }
  return found
}

const literal = (text: string): Word => ({ parts: [{ kind: 'literal', text, quoted: true }] })
