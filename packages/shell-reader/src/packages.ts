/**
 * Package managers' runners: `npx`/`npm exec`, `pnpm exec`/`pnpm dlx`, `yarn exec`/`yarn dlx`
 * and `bunx` run the program named by their first operand (a binary of the project, of a package
 * they fetch, or one on the PATH), read as that command: `npx rm x` is `rm x`, and an npm package
 * that happens to be named `rm` is still something a deny on `rm` should stop. `-c`/`--call`
 * (npm) and `-c`/`--shell-mode` (pnpm) hand shell source to the shell. Package scripts
 * (`npm run`, `npm test`, `yarn build`) are not read: their code is in package.json.
 */
import { scanOptions, type OptionSpec, type Scan } from './options.js'
import { staticText, type Word } from './syntax.js'
import type { Wrapped } from './wrappers.js'

const UNKNOWN: Wrapped = { kind: 'unknown' }

/** `npx`/`npm exec` options (npm 7 and later, and npm 6's `npx`); npx reads them before the first operand. */
const NPX: OptionSpec = {
  flags: 'yq',
  values: 'cpwn',
  longFlags: ['yes', 'no', 'no-yes', 'quiet', 'silent', 'workspaces', 'include-workspace-root', 'no-install', 'ignore-existing'],
  longValues: ['call', 'package', 'workspace', 'prefix', 'loglevel', 'registry', 'cache', 'userconfig', 'shell', 'node-arg'],
}

/** `pnpm exec` and `pnpm dlx` options; `-c` (`--shell-mode`) runs the words through the shell. */
const PNPM: OptionSpec = {
  flags: 'crw',
  values: 'CF',
  longFlags: ['shell-mode', 'recursive', 'parallel', 'report-summary', 'no-reporter-hide-prefix', 'workspace-root', 'silent'],
  longValues: ['package', 'resume-from', 'filter', 'dir', 'allow-build'],
}

const YARN_DLX: OptionSpec = { flags: 'q', values: 'p', longFlags: ['quiet'], longValues: ['package'] }
const BUNX: OptionSpec = { values: 'p', longFlags: ['bun', 'silent', 'verbose'], longValues: ['package'] }

/** What `name` (`npx`, `npm`, `pnpm`, `yarn`, `bunx`, `bun`) with `words` runs, if anything. */
export function packageRunner(name: string, words: readonly Word[]): Wrapped[] {
  if (name === 'npx') return npx(words)
  if (name === 'bunx') return launched(words, scanOptions(words, BUNX), false)
  const sub = subcommand(words)
  if (sub === undefined) return [UNKNOWN]
  switch (`${name} ${sub.name}`) {
    case 'npm exec':
    case 'npm x': return npx(sub.words)
    case 'pnpm exec':
    case 'pnpm dlx': return pnpm(sub.words)
    case 'yarn exec': return sub.words.length > 1 ? [{ kind: 'script', words: sub.words.slice(1) }] : []
    case 'yarn dlx': return launched(sub.words, scanOptions(sub.words, YARN_DLX), false)
    case 'bun x': return launched(sub.words, scanOptions(sub.words, BUNX), false)
    default: return []
  }
}

/**
 * The subcommand and its words (its name first), `''` when there is none; undefined when an
 * option comes first (its value could be taken for the subcommand) and a runner's name, or a
 * word known only at run time, follows.
 */
function subcommand(words: readonly Word[]): { name: string, words: readonly Word[] } | undefined {
  const first = words.length > 1 ? staticText(words[1]) : ''
  if (first !== undefined && !first.startsWith('-')) return { name: first, words: words.slice(1) }
  const runs = words.some((word) => {
    const text = staticText(word)
    return text === undefined || text === 'exec' || text === 'x' || text === 'dlx'
  })
  return runs ? undefined : { name: '', words }
}

/**
 * `npx [options] COMMAND…` and `npm exec [options] [--] COMMAND…`; `-c`/`--call` is shell source.
 * With neither, npm starts a shell, which reads standard input.
 */
function npx(words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, NPX)
  if (scan.kind === 'unknown') return [UNKNOWN]
  const call = scan.values.findLast((value) => value.option === '-c' || value.option === '--call')
  if (call) return [{ kind: 'script', words: [call.value] }]
  return launched(words, scan, true)
}

/** `pnpm exec|dlx [options] COMMAND…`; with `-c` the words are shell source, joined by spaces. */
function pnpm(words: readonly Word[]): Wrapped[] {
  const scan = scanOptions(words, PNPM)
  if (scan.kind !== 'found') return scan.kind === 'unknown' ? [UNKNOWN] : []
  const rest = words.slice(scan.index)
  return [scan.seen.has('-c') || scan.seen.has('--shell-mode') ? { kind: 'script', words: rest } : { kind: 'command', words: rest, settings: [] }]
}

/** The command a scan of `words` found, or with none, nothing (or a shell reading standard input). */
function launched(words: readonly Word[], scan: Scan, shell: boolean): Wrapped[] {
  switch (scan.kind) {
    case 'found': return [{ kind: 'command', words: words.slice(scan.index), settings: [] }]
    case 'none': return shell ? [{ kind: 'stdin' }] : []
    case 'unknown': return [UNKNOWN]
  }
}
