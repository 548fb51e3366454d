/**
 * Where commands may start. `cwd` is resolved against the root and refused (`TOOL_DENIED`)
 * when its lexical form (`..`, an absolute path elsewhere) or its real form (after symbolic
 * links) lies outside the root. This confines where a command starts, not what it does:
 * bash itself is not sandboxed, and a command may still `cd /`.
 */
import { realpathSync, statSync } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { BAD_CWD, ShellToolError, TOOL_DENIED } from './codes.js'

export class Workspace {
  private constructor(readonly path: string, readonly real: string) {}

  /** Checks the configured root once, at plugin start; throws a message that says how to fix it. */
  static open(root: unknown, owner: string): Workspace {
    if (typeof root !== 'string' || root === '') {
      throw new Error(`${owner}: config.root is required: the folder commands run in (e.g. { root: '.' })`)
    }
    const absolute = path.resolve(root)
    let real: string
    try {
      real = realpathSync(absolute)
    } catch {
      throw new Error(`${owner}: config.root "${root}" (${absolute}) does not exist; create it or set root to an existing folder`)
    }
    if (!statSync(real).isDirectory()) throw new Error(`${owner}: config.root "${root}" (${absolute}) is not a directory`)
    return new Workspace(absolute, real)
  }

  /** The real folder for `cwd` (default: the root). Throws `TOOL_DENIED` or `BAD_CWD`. */
  async cwd(input: string | undefined): Promise<string> {
    if (input === undefined || input === '') return this.real
    const lexical = path.resolve(this.path, input)
    if (input.includes('\0') || !(inside(lexical, this.path) || inside(lexical, this.real))) {
      const how = input.split(/[\\/]/).includes('..') ? 'its ".." segments lead out of' : 'it is outside'
      throw new ShellToolError(TOOL_DENIED, `cwd "${input}" is refused: ${how} the root ${this.path}`)
    }
    let real: string
    try {
      real = await realpath(lexical)
    } catch {
      throw new ShellToolError(BAD_CWD, `cwd "${input}" does not exist`)
    }
    if (!inside(real, this.real)) {
      throw new ShellToolError(TOOL_DENIED, `cwd "${input}" is refused: a symbolic link on it leads to ${real}, outside the root ${this.path}`)
    }
    if (!(await stat(real)).isDirectory()) throw new ShellToolError(BAD_CWD, `cwd "${input}" is not a folder`)
    return real
  }
}

/** Whether `target` is `dir` or lies below it (both absolute and normalized). */
export function inside(target: string, dir: string): boolean {
  return target === dir || target.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)
}
