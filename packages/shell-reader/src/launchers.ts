/**
 * Programs that run the rest of their words as a command after their own options (`sudo`,
 * `nice`, `taskset`, `unshare`…), and the few whose words take another shape (`flock FILE -c`,
 * `script -c`, `setarch ARCH`, `sg GROUP`, `capsh --`, `runcon CONTEXT`, `schedtool -e`, macOS
 * `arch -x86_64`, `bwrap --bind SRC DEST`). The options are the ones their manuals (coreutils,
 * util-linux and each program's own) list; an option not listed makes the command unknown
 * (`options.ts`).
 */
import { scanOptions, type OptionSpec } from './options.js'
import { staticText, type Word } from './syntax.js'
import type { Wrapped } from './wrappers.js'

/** A program that runs the rest of its words as a command, after its own options. */
export interface Launcher {
  options: OptionSpec
  /**
   * With no command it starts a shell, which reads its commands from standard input (`chroot
   * DIR`, `unshare`, `sudo -s`): always, or when one of these options was given.
   */
  shell?: true | readonly string[]
}

const RESOURCES = ['core', 'data', 'nice', 'fsize', 'sigpending', 'memlock', 'rss', 'nofile', 'msgqueue', 'rtprio', 'stack', 'cpu', 'nproc', 'as', 'locks', 'rttime']
const NAMESPACES = ['mount', 'uts', 'ipc', 'net', 'pid', 'user', 'cgroup', 'time']

/** Programs that run the command after their options (and operands), by base name. */
export const LAUNCHERS: Record<string, Launcher> = {
  builtin: { options: {} },
  busybox: { options: {} },
  toybox: { options: {} },
  // macOS: keeps the machine awake while the command runs.
  caffeinate: { options: { flags: 'dimsu', values: 'tw' } },
  cgexec: { options: { flags: 'h', values: 'g', longFlags: ['sticky'] } },
  chronic: { options: { flags: 'ev' } },
  choom: { options: { values: 'np', longValues: ['adjust', 'pid'] } },
  chroot: { options: { longFlags: ['skip-chdir'], longValues: ['userspec', 'groups'], operands: 1 }, shell: true },
  // The priority may be left out for policies that take none, in newer versions.
  chrt: {
    options: {
      flags: 'abdfiopmrRvhV',
      values: 'TPD',
      longFlags: ['all-tasks', 'batch', 'deadline', 'fifo', 'idle', 'other', 'rr', 'reset-on-fork', 'max', 'pid', 'verbose'],
      longValues: ['sched-runtime', 'sched-period', 'sched-deadline'],
      optionalOperand: /^[+-]?\d+$/,
    },
  },
  command: { options: { flags: 'pvV' } },
  'dbus-run-session': { options: { longValues: ['dbus-daemon', 'config-file'] } },
  eatmydata: { options: {} },
  doas: { options: { flags: 'nSs', values: 'Cu' }, shell: ['-s'] },
  env: { options: { flags: 'i0v', values: 'uC', longFlags: ['ignore-environment', 'null', 'debug'], longValues: ['unset', 'chdir'], dash: true, assignments: true } },
  exec: { options: { flags: 'cl', values: 'a' } },
  fakeroot: { options: { flags: 'uhv', values: 'lfisb', longFlags: ['unknown-is-real'], longValues: ['lib', 'faked', 'fd-base'] }, shell: true },
  // Every option is `--name` or `--name=value`; a short one is not understood.
  firejail: { options: { longAny: true }, shell: true },
  ifne: { options: { flags: 'n' } },
  ionice: { options: { flags: 't', values: 'cnpPu', longFlags: ['ignore'], longValues: ['class', 'classdata', 'pid', 'pgid', 'uid'] } },
  ltrace: { options: { flags: 'bcCfghiLrStTV', values: 'aADelnopsuwxF', longFlags: ['demangle', 'no-signals', 'no-plt'], longValues: ['align', 'indent', 'library', 'output'] } },
  nice: { options: { values: 'n', longValues: ['adjustment'], numeric: true } },
  nohup: { options: {} },
  // macOS: runs the command under a sandbox profile (named, from a file, or given).
  'sandbox-exec': { options: { values: 'nfpD' } },
  nsenter: {
    options: {
      flags: 'aFZhV',
      optional: 'muinpCUTrw',
      values: 'tSGW',
      longFlags: ['all', ...NAMESPACES, 'root', 'wd', 'no-fork', 'follow-context', 'preserve-credentials'],
      longValues: ['target', 'setuid', 'setgid', 'wdns'],
    },
    shell: true,
  },
  numactl: {
    options: {
      flags: 'ahHlsb',
      values: 'imNCpP',
      longFlags: ['all', 'hardware', 'localalloc', 'show', 'balancing'],
      longValues: ['interleave', 'membind', 'cpunodebind', 'physcpubind', 'preferred', 'preferred-many'],
    },
  },
  pkexec: { options: { longFlags: ['disable-internal-agent', 'keep-cwd'], longValues: ['user'] }, shell: true },
  // A resource's limit is optional, so it must be attached: `-n100`, `--nofile=100`.
  proxychains: { options: { flags: 'q', values: 'f' } },
  proxychains4: { options: { flags: 'q', values: 'f' } },
  prlimit: { options: { optional: 'cdefilmnqrstuvxy', values: 'po', longFlags: [...RESOURCES, 'noheadings', 'raw', 'verbose'], longValues: ['pid', 'output'] } },
  setpriv: {
    options: {
      flags: 'dhV',
      longFlags: ['dump', 'nnp', 'no-new-privs', 'clear-groups', 'keep-groups', 'init-groups', 'reset-env'],
      longValues: ['ambient-caps', 'inh-caps', 'bounding-set', 'ruid', 'euid', 'rgid', 'egid', 'reuid', 'regid', 'groups',
        'securebits', 'pdeathsig', 'selinux-label', 'apparmor-profile', 'landlock-access', 'landlock-rule'],
    },
  },
  setsid: { options: { flags: 'cfw', longFlags: ['ctty', 'fork', 'wait'] } },
  'ssh-agent': { options: { flags: 'csDdk', values: 'aEOPt' } },
  stdbuf: { options: { values: 'ioe', longValues: ['input', 'output', 'error'] } },
  strace: {
    options: {
      flags: 'AcCdDfFhiknqrtTvVwxyzZ',
      values: 'abeEIoOpPsSuUX',
      longFlags: ['follow-forks', 'output-separately', 'summary-only', 'summary', 'seccomp-bpf', 'daemonize', 'decode-fds', 'quiet', 'no-abbrev', 'verbose'],
      longValues: ['output', 'trace', 'signal', 'env', 'attach', 'user', 'string-limit', 'abbrev', 'raw', 'read', 'write', 'columns', 'detach-on', 'interruptible', 'trace-path', 'summary-sort-by'],
    },
  },
  sudo: {
    options: {
      flags: 'AbEHiKklnPSsVv',
      values: 'CDghpRrTtUu',
      longFlags: ['askpass', 'background', 'preserve-env', 'set-home', 'login', 'remove-timestamp', 'reset-timestamp', 'non-interactive', 'preserve-groups', 'stdin', 'shell'],
      longValues: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user', 'user'],
      assignments: true,
    },
    shell: ['-s', '-i', '--shell', '--login'],
  },
  'systemd-run': {
    options: {
      flags: 'rPtGqdS',
      values: 'HMupEC',
      longFlags: ['user', 'system', 'scope', 'remain-after-exit', 'send-sighup', 'pipe', 'pty', 'collect', 'quiet', 'same-dir', 'shell', 'wait',
        'no-ask-password', 'no-block', 'on-clock-change', 'on-timezone-change', 'slice-inherit'],
      longValues: ['host', 'machine', 'unit', 'property', 'description', 'slice', 'uid', 'gid', 'nice', 'working-directory', 'setenv',
        'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'timer-property', 'path-property',
        'socket-property', 'service-type', 'capsule', 'expand-environment'],
    },
    shell: ['-S', '--shell'],
  },
  taskset: { options: { flags: 'acp', longFlags: ['all-tasks', 'cpu-list', 'pid'], operands: 1 } },
  time: { options: { flags: 'apqvV', values: 'fo', longFlags: ['append', 'portability', 'quiet', 'verbose'], longValues: ['format', 'output'] } },
  timeout: { options: { flags: 'v', values: 'ks', longFlags: ['foreground', 'preserve-status', 'verbose'], longValues: ['kill-after', 'signal'], operands: 1 } },
  torsocks: { options: { flags: 'iqd', values: 'uapP', longFlags: ['isolate', 'quiet', 'debug', 'shell'], longValues: ['user', 'pass', 'address', 'port'] }, shell: ['--shell'] },
  uclampset: { options: { flags: 'asRv', values: 'mMp', longFlags: ['all-tasks', 'system', 'reset-on-fork', 'verbose'], longValues: ['pid'] } },
  unshare: {
    options: {
      flags: 'frc',
      optional: 'muinpUCT',
      values: 'RwSGl',
      longFlags: [...NAMESPACES, 'fork', 'map-root-user', 'map-current-user', 'map-auto', 'kill-child', 'mount-proc', 'keep-caps', 'mount-binfmt'],
      longValues: ['map-user', 'map-group', 'map-users', 'map-groups', 'propagation', 'setgroups', 'root', 'wd', 'setuid', 'setgid', 'monotonic', 'boottime', 'load-interp'],
    },
    shell: true,
  },
  unbuffer: { options: { flags: 'p' } },
  // Every option is `--name=value` or a short flag.
  valgrind: { options: { flags: 'qvhd', longAny: true } },
  // Runs the command with a virtual X server (`-s ARGS` are the server's, one word).
  'xvfb-run': {
    options: {
      flags: 'adhl',
      values: 'efnpsw',
      longFlags: ['auto-servernum', 'auto-display', 'help', 'listen-tcp'],
      longValues: ['error-file', 'auth-file', 'server-num', 'xauth-protocol', 'server-args', 'wait'],
    },
  },
}

const UNKNOWN: Wrapped = { kind: 'unknown' }
const STDIN: Wrapped = { kind: 'stdin' }

/** Shell source in one word. */
const script = (word: Word): Wrapped => ({ kind: 'script', words: [word] })

/** What a program from `LAUNCHERS` runs, from its words (its name first). */
export function launched(launcher: Launcher, words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, launcher.options)
  switch (scan.kind) {
    case 'found': return [{ kind: 'command', words: words.slice(scan.index), settings: scan.settings }]
    case 'unknown': return [UNKNOWN]
    case 'none': {
      const { shell } = launcher
      return shell === true || shell?.some((option) => scan.seen.has(option)) ? [STDIN] : []
    }
  }
}

const FLOCK: OptionSpec = {
  flags: 'sxenuoFhV',
  values: 'wE',
  longFlags: ['shared', 'exclusive', 'unlock', 'nonblock', 'nb', 'close', 'no-fork', 'verbose'],
  longValues: ['timeout', 'wait', 'conflict-exit-code'],
  operands: 1,
}

/**
 * `flock [options] FILE COMMAND…`, or `FILE -c COMMAND` (`--command`) through the shell; a file
 * descriptor number alone runs nothing.
 */
export function flock(words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, FLOCK)
  if (scan.kind !== 'found') return scan.kind === 'unknown' ? [UNKNOWN] : []
  const first = staticText(words[scan.index])
  if (first === '-c' || first === '--command') return scan.index + 1 < words.length ? [script(words[scan.index + 1])] : []
  return [{ kind: 'command', words: words.slice(scan.index), settings: [] }]
}

const SCRIPT = { flags: 'aefqhV', values: 'IOBTmEoc', longFlags: ['append', 'return', 'flush', 'force', 'quiet', 'timing'],
  longValues: ['log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'echo', 'output-limit', 'command'] }

/**
 * `script [options] [file]`: `-c COMMAND` runs through the shell, otherwise an interactive shell
 * reads standard input. It reads its options wherever they are, before or after the file.
 */
export function typescript(words: readonly Word[]): Wrapped[] {
  const commands: Word[] = []
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (text === '--') break
    if (!text.startsWith('-') || text === '-') continue
    // The option that takes a value, and the value when it is in the same word.
    let value: { command: boolean, attached?: string } | undefined
    if (text.startsWith('--')) {
      const eq = text.indexOf('=')
      const name = text.slice(2, eq < 0 ? undefined : eq)
      if (SCRIPT.longFlags.includes(name)) continue
      if (!SCRIPT.longValues.includes(name)) return [UNKNOWN]
      value = { command: name === 'command', attached: eq < 0 ? undefined : text.slice(eq + 1) }
    } else {
      for (let k = 1; k < text.length && value === undefined; k++) {
        // `-t[FILE]`: the rest of the word is its value.
        if (text[k] === 't') break
        if (SCRIPT.values.includes(text[k])) value = { command: text[k] === 'c', attached: k + 1 < text.length ? text.slice(k + 1) : undefined }
        else if (!SCRIPT.flags.includes(text[k])) return [UNKNOWN]
      }
    }
    if (value === undefined) continue
    const word = value.attached !== undefined ? literal(value.attached) : words[++i]
    if (value.command && word !== undefined) commands.push(word)
  }
  return commands.length > 0 ? commands.map(script) : [STDIN]
}

const SETARCH: OptionSpec = {
  flags: 'BFILRSTXZ3v',
  longFlags: ['32bit', 'fdpic-funcptrs', 'short-inode', 'addr-compat-layout', 'addr-no-randomize', 'whole-seconds', 'sticky-timeouts',
    'read-implies-exec', 'mmap-page-zero', '3gb', '4gb', 'uname-2.6', 'verbose', 'list'],
}

/**
 * `setarch [ARCH] [options] [COMMAND…]` (`linux32`, `linux64` and the other names it is installed
 * under take no ARCH); with no command it starts `/bin/sh`, which reads standard input.
 */
export function setarch(name: string, words: readonly Word[]): Wrapped[] {
  const arch = name === 'setarch' && words.length > 1 && !(staticText(words[1]) ?? '-').startsWith('-') ? 1 : 0
  if (name === 'setarch' && words.length > 1 && staticText(words[1]) === undefined) return [UNKNOWN]
  return launched({ options: SETARCH, shell: true }, [words[0], ...words.slice(1 + arch)])
}

/** Names `setarch` is installed under, which set that architecture. */
export const SETARCH_NAMES = new Set(['setarch', 'linux32', 'linux64', 'i386', 'x86_64', 'uname26'])

/** `sg GROUP [-c] COMMAND` hands the command to `/bin/sh -c`; with none, a shell reads standard input. */
export function sg(words: readonly Word[]): Wrapped[] {
  if (words.length < 2) return []
  if (staticText(words[1]) === undefined) return [UNKNOWN]
  const at = words.length > 2 && staticText(words[2]) === '-c' ? 3 : 2
  return at < words.length ? [script(words[at])] : [STDIN]
}

/**
 * `capsh [options] -- ARGS` runs `/bin/bash ARGS`, and `== ARGS` runs capsh again; `--shell=X`
 * makes that program any program. Its options are `--name` or `--name=value`.
 */
export function capsh(words: readonly Word[]): Wrapped[] {
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined || text.startsWith('--shell=')) return [UNKNOWN]
    if (text === '--' || text === '-+') return [{ kind: 'command', words: [literal('bash'), ...words.slice(i + 1)], settings: [] }]
    if (text === '==' || text === '=+') return [{ kind: 'command', words: [literal('capsh'), ...words.slice(i + 1)], settings: [] }]
    if (!text.startsWith('--')) return [UNKNOWN]
  }
  return []
}

const RUNCON: OptionSpec = { flags: 'c', values: 'urtl', longFlags: ['compute'], longValues: ['user', 'role', 'type', 'range'] }

/** `runcon CONTEXT COMMAND…`, or `runcon [options] COMMAND…`. */
export function runcon(words: readonly Word[]): Wrapped[] {
  const first = words.length > 1 ? staticText(words[1]) : ''
  if (first === undefined) return [UNKNOWN]
  return launched({ options: first.startsWith('-') ? RUNCON : { operands: 1 } }, words)
}

const SCHEDTOOL: OptionSpec = { flags: '0N1F2R3B4I5Drvh', values: 'Mapn' }

/** `schedtool [options] [PID…]`, or `schedtool [options] -e COMMAND…`. */
export function schedtool(words: readonly Word[]): Wrapped[] {
  const at = words.findIndex((word) => staticText(word) === '-e')
  if (at < 0) return []
  const scan = scanOptions(words.slice(0, at), SCHEDTOOL)
  if (scan.kind === 'unknown' || scan.kind === 'found') return [UNKNOWN]
  return at + 1 < words.length ? [{ kind: 'command', words: words.slice(at + 1), settings: [] }] : []
}

/**
 * macOS `arch [-32] [-64] [-ARCH | -arch ARCH]… [-c] [-d NAME]… [-e NAME=VALUE]… [-h] PROGRAM…`
 * runs the program; any other `-word` names an architecture (`-x86_64`, `-arm64`), and options end
 * at the first other word. `-e` settings are the command's. The `arch` of Linux (coreutils) takes
 * no operand and fails with one, running nothing: reading the macOS way only reads more.
 */
export function arch(words: readonly Word[]): Wrapped[] {
  const settings: Word[] = []
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined) return [UNKNOWN]
    if (text === '-arch' || text === '-d' || text === '-e') {
      if (i + 1 < words.length && staticText(words[i + 1]) === undefined) return [UNKNOWN]
      if (text === '-e' && i + 1 < words.length) settings.push(words[i + 1])
      i++
    } else if (text === '--' || !text.startsWith('-')) {
      const at = text === '--' ? i + 1 : i
      return at < words.length ? [{ kind: 'command', words: words.slice(at), settings }] : []
    }
  }
  return []
}

/** bubblewrap's options (`bwrap --help`), by how many words of value they take; none has `--name=value`. */
const BWRAP = new Map<string, number>([
  ...valued(0, 'help version level-prefix unshare-all share-net unshare-user unshare-user-try unshare-ipc unshare-pid unshare-net',
    'unshare-uts unshare-cgroup unshare-cgroup-try disable-userns assert-userns-disabled clearenv new-session die-with-parent as-pid-1'),
  ...valued(1, 'argv0 userns userns2 pidns uid gid hostname chdir unsetenv lock-file sync-fd remount-ro overlay-src tmp-overlay',
    'ro-overlay exec-label file-label proc dev tmpfs mqueue dir seccomp add-seccomp-fd block-fd userns-block-fd info-fd',
    'json-status-fd cap-add cap-drop perms size'),
  ...valued(2, 'setenv bind bind-try dev-bind dev-bind-try ro-bind ro-bind-try bind-fd ro-bind-fd file bind-data ro-bind-data symlink chmod'),
  ...valued(3, 'overlay'),
])

/** Each of the names in `lists` (space-separated) as `--name`, with `count`. */
function valued(count: number, ...lists: string[]): [string, number][] {
  return lists.join(' ').split(' ').map((name) => [`--${name}`, count])
}

/**
 * `bwrap [OPTIONS…] [--] COMMAND…`: every option is a long one with a fixed number of values
 * (`--bind SRC DEST`, `--overlay RWSRC WORKDIR DEST`), and options end at the first other word.
 * `--setenv VAR VALUE` is a setting of the command; `--args FD` reads more options from a file
 * descriptor, so the command is unknown.
 */
export function bwrap(words: readonly Word[]): Wrapped[] {
  const settings: Word[] = []
  for (let i = 1; i < words.length;) {
    const text = staticText(words[i])
    if (text === undefined || text === '--args') return [UNKNOWN]
    if (text === '--' || !text.startsWith('-')) {
      const at = text === '--' ? i + 1 : i
      return at < words.length ? [{ kind: 'command', words: words.slice(at), settings }] : []
    }
    const count = BWRAP.get(text)
    if (count === undefined) return [UNKNOWN]
    const values = words.slice(i + 1, i + 1 + count).map(staticText)
    if (values.some((value) => value === undefined)) return [UNKNOWN]
    if (text === '--setenv' && values.length === 2) settings.push(literal(`${values[0]}=${values[1]}`))
    i += 1 + count
  }
  return []
}

const literal = (text: string): Word => ({ parts: [{ kind: 'literal', text, quoted: true }] })

/** env's options before `-S` that take a value (`-u NAME`, `-C DIR`) and their long names. */
const ENV_VALUE = /^-[i0v]*[uC]$|^--(?:unset|chdir)$/

/**
 * `env [options] [-S STRING] …`: `-S` (`--split-string`) splits the string into words, which
 * take its place as env's own arguments (options, settings, the command). A string of plain words
 * is split at blanks and read so; one with quotes, escapes, `$` or `#` (which env reads in its
 * own way) is unknown.
 */
export function env(words: readonly Word[]): Wrapped[] {
  for (let i = 1; i < words.length; i++) {
    const text = staticText(words[i])
    if (text === undefined || text === '--' || !text.startsWith('-') || text === '-') break
    if (ENV_VALUE.test(text)) {
      i++
      continue
    }
    const short = /^-([i0v]*)S(.*)$/s.exec(text)
    let flags = ''
    let attached: string | undefined
    if (short) {
      flags = short[1]
      attached = short[2] === '' ? undefined : short[2]
    } else if (text.startsWith('--split-string=')) attached = text.slice('--split-string='.length)
    else if (text !== '--split-string') continue
    const string = attached ?? (words[i + 1] && staticText(words[i + 1]))
    if (string === undefined || !/^[^'"\\$#]*$/.test(string)) return [UNKNOWN]
    const parts = string.split(/[ \t\n\v\f\r]+/).filter((part) => part !== '').map(literal)
    const rest = words.slice(i + (attached === undefined ? 2 : 1))
    return env([...words.slice(0, i), ...(flags === '' ? [] : [literal(`-${flags}`)]), ...parts, ...rest])
  }
  return launched(LAUNCHERS.env, words)
}
