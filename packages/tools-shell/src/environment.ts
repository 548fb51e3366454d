/**
 * What a command inherits: only the allow-listed environment variables, and a shell found
 * once at start. The allow-list keeps the rest of this process's environment (which may hold
 * keys) out of the command's own environment; it does not put it out of the command's reach:
 * a command runs as the same user and can read `/proc/<this pid>/environ`, the environment
 * this process was started with. Keys are kept from commands only by running them as another
 * user or in a sandbox, or by not starting this process with keys in its environment.
 */
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

/** The variables of `source` named in `names` (absent ones are left out). Pure. */
export function pickEnv(names: readonly string[], source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of names) {
    const value = source[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

/** The absolute path of `shell`: as given when absolute, else the first match on `searchPath`. */
export function findShell(shell: string, searchPath: string | undefined, owner: string): string {
  const candidates = path.isAbsolute(shell)
    ? [shell]
    : (searchPath ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, shell))
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here; try the next folder
    }
  }
  throw new Error(`${owner}: shell "${shell}" was not found${path.isAbsolute(shell) ? '' : ' on PATH'}; set config.shell to its absolute path`)
}
