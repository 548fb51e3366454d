/**
 * Terminal multiplexers, which run a command in a new window: `screen [options] COMMAND…` runs
 * it directly; `tmux new-session 'shell command'` (and `new-window`, `split-window`,
 * `respawn-pane`, `respawn-window`, `run-shell`) hands one word to the shell and runs several
 * directly. Whatever else can run code (a configuration file, a screen command sent to a
 * session, `tmux send-keys`, `if-shell`, `bind-key`, `#(…)` in a format) is unknown.
 */
import { scanOptions, type OptionSpec } from './options.js'
import { staticText, type Word } from './syntax.js'
import type { Wrapped } from './wrappers.js'

const UNKNOWN: Wrapped = { kind: 'unknown' }

/**
 * GNU screen's options (`screen -h`); `-fn`, `-fa` and `-ln` are read as letters. A value is the
 * rest of the word or the next word, as screen reads it.
 */
const SCREEN: OptionSpec = { flags: '46aAdDfilLmnOqQrRUvxX', values: 'cehpsStT' }

/**
 * `screen [options] [COMMAND…]` runs the command in a new window (with none, the user's shell,
 * on the terminal). `-c FILE` (a configuration file's commands), `-s SHELL` (the program to run),
 * and `-X`/`-Q` (a screen command for a running session) make it unknown; so does a word after
 * `-r`, `-R`, `-x`, or `-d`/`-D` without `-m`, which reattach or detach a session and may name it.
 * `-ls`, `-list` and `-wipe` only list sessions.
 */
export function screen(words: readonly Word[]): Wrapped[] {
  const first = words.length > 1 ? staticText(words[1]) : undefined
  if (first === '-ls' || first === '-list' || first === '-wipe') return []
  const scan = scanOptions(words, SCREEN)
  if (scan.kind === 'unknown' || ['-c', '-s', '-X', '-Q'].some((option) => scan.seen.has(option))) return [UNKNOWN]
  if (scan.kind === 'none') return []
  const attaches = ['-r', '-R', '-x'].some((option) => scan.seen.has(option)) || ((scan.seen.has('-d') || scan.seen.has('-D')) && !scan.seen.has('-m'))
  return attaches ? [UNKNOWN] : [{ kind: 'command', words: words.slice(scan.index), settings: [] }]
}

/** tmux's own options, before its command: `-c COMMAND` runs a shell command, `-f FILE` a configuration file. */
const TMUX: OptionSpec = { flags: '2CDlNuvV', values: 'cfLST' }

/** tmux commands that run a shell command given after their options, by name and alias. */
const TMUX_RUNS: Record<string, OptionSpec> = {
  'new-session': { flags: 'AdDEPX', values: 'cefFnstxy' },
  'new-window': { flags: 'abdkPS', values: 'ceFnt' },
  'split-window': { flags: 'bdfhIvPZ', values: 'ceFlpt' },
  'respawn-pane': { flags: 'k', values: 'cet' },
  'respawn-window': { flags: 'k', values: 'cet' },
  // With `-C` the command is a tmux command.
  'run-shell': { flags: 'b', values: 'cdt' },
}
const TMUX_ALIASES: Record<string, string> = { new: 'new-session', neww: 'new-window', splitw: 'split-window', respawnp: 'respawn-pane', respawnw: 'respawn-window', run: 'run-shell' }

/** tmux commands that run nothing their arguments name (a format with `#(…)` aside). */
const TMUX_QUIET = new Set(['attach-session', 'attach', 'detach-client', 'detach', 'has-session', 'has', 'kill-server', 'kill-session',
  'kill-window', 'killw', 'kill-pane', 'killp', 'list-sessions', 'ls', 'list-windows', 'lsw', 'list-panes', 'lsp', 'list-clients', 'lsc',
  'select-window', 'selectw', 'select-pane', 'selectp', 'rename-session', 'rename', 'rename-window', 'renamew', 'resize-pane', 'resizep',
  'capture-pane', 'capturep', 'switch-client', 'switchc', 'start-server', 'start'])

/**
 * `tmux [options] [COMMAND [ARGS…]] [; COMMAND…]`: the shell commands of the commands in
 * `TMUX_RUNS`, one word read as shell source and several as a command; with no command, a new
 * session runs the user's shell. Any other command (`send-keys`, `if-shell`, `source-file`,
 * `set-option`, `bind-key`, an abbreviated name), a word known only at run time (it could be
 * `;` and start another command), or `#(` (a format running a shell command) is unknown.
 */
export function tmux(words: readonly Word[]): Wrapped[] {
  const texts = words.map(staticText)
  if (texts.some((text) => text === undefined || text.includes('#('))) return [UNKNOWN]
  const scan = scanOptions(words, TMUX)
  if (scan.kind === 'unknown' || scan.seen.has('-f')) return [UNKNOWN]
  const command = scan.values.findLast((value) => value.option === '-c')
  if (command) return [{ kind: 'script', words: [command.value] }]
  if (scan.kind === 'none') return []
  const found: Wrapped[] = []
  let start = scan.index
  for (let i = start; i <= words.length; i++) {
    if (i < words.length && texts[i] !== ';') {
      if (texts[i]?.endsWith(';')) return [UNKNOWN]
      continue
    }
    if (i > start) {
      const read = tmuxCommand(texts[start] ?? '', words.slice(start, i))
      if (read === undefined) return [UNKNOWN]
      found.push(...read)
    }
    start = i + 1
  }
  return found
}

/** What one tmux command (its name first) runs, or undefined when that cannot be told. */
function tmuxCommand(name: string, words: readonly Word[]): Wrapped[] | undefined {
  if (TMUX_QUIET.has(name)) return []
  const full = TMUX_ALIASES[name] ?? name
  if (!Object.hasOwn(TMUX_RUNS, full)) return undefined
  const scan = scanOptions(words, TMUX_RUNS[full])
  if (scan.kind === 'unknown') return undefined
  if (scan.kind === 'none') return []
  const rest = words.slice(scan.index)
  return [rest.length === 1 ? { kind: 'script', words: rest } : { kind: 'command', words: rest, settings: [] }]
}
