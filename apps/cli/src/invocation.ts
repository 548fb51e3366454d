/**
 * How to tell someone to run `rein` again so that a printed follow-up command works as
 * printed, from the folder they are in. In order: `npx rein` when a `node_modules/.bin/rein`
 * is in that folder or above (exactly where npx looks); `npx @rein/cli` when this copy runs
 * from npx's cache (there `npx rein` would fetch an unrelated package); `rein` when it is on
 * the PATH; else `node <path to bin/rein.mjs>`.
 */
import { existsSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { packageRoot } from './paths.js'

const BIN_NAMES = ['rein', 'rein.cmd']

/** The command prefix for a follow-up line run from `cwd`. */
export function reinCommand(cwd: string, env: Readonly<Record<string, string | undefined>>, cliFolder: string = packageRoot()): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (hasBin(join(dir, 'node_modules', '.bin'))) return 'npx rein'
    if (dirname(dir) === dir) break
  }
  if (cliFolder.split(sep).includes('_npx')) return 'npx @rein/cli'
  if ((env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && hasBin(dir))) return 'rein'
  const bin = join(cliFolder, 'bin', 'rein.mjs')
  const near = relative(cwd, bin)
  return `node ${shellWord(near.length < bin.length && !isAbsolute(near) ? near : bin)}`
}

/** `text` as one word for a POSIX shell: as it is when it is safe, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w./@:+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

function hasBin(dir: string): boolean {
  return BIN_NAMES.some((name) => existsSync(join(dir, name)))
}
