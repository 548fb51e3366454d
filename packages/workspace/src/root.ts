/**
 * The root and the resolution of a model-given path against it. `Root.resolve` refuses with
 * `TOOL_DENIED` a path whose lexical form lies outside the root (`..` that climbs out, an
 * absolute path elsewhere) and a path whose real form lies outside the root's real path.
 * Every symbolic link on the way is followed, a dangling one too: a link is judged by where it
 * points, whether or not that exists yet (the dangling-link rule, README). A resolved path is
 * only a check: callers open it with `openInside` / `openForWrite`, which check again.
 */
import { realpathSync, statSync } from 'node:fs'
import { lstat, readlink, realpath } from 'node:fs/promises'
import path from 'node:path'
import { explain, TOOL_DENIED, WorkspaceError } from './errors.js'

/** A path inside the root: `real` is what callers open, `shown` is what the model is told. */
export interface Resolved {
  /** The absolute real path (symbolic links followed, dangling ones to where they point). */
  real: string
  /** The path relative to the root, with `/` separators (`.` for the root itself). */
  shown: string
}

/** How a root names things in its messages. */
export interface RootOptions {
  /** What a model-given path is called in refusals: `path "x" is refused: ...`. Default `'path'`. */
  noun?: string
  /** What the root is for, in the message for a missing `root`. Default `'the folder the tools may use'`. */
  purpose?: string
}

/** Links followed for one path before it counts as a loop (the kernel's own limit is 40). */
const MAX_LINKS = 40

export class Root {
  private constructor(
    /** The configured root, made absolute. */
    readonly path: string,
    /** The root's real path. */
    readonly real: string,
    /** What a model-given path is called in refusals. */
    readonly noun: string,
  ) {}

  /** Checks the configured root once, at plugin start. Throws a message, prefixed by `owner`, saying how to fix it. */
  static open(root: unknown, owner: string, options: RootOptions = {}): Root {
    const purpose = options.purpose ?? 'the folder the tools may use'
    if (typeof root !== 'string' || root === '') {
      throw new Error(`${owner}: config.root is required: ${purpose} (e.g. { root: '.' })`)
    }
    const absolute = path.resolve(root)
    let real: string
    try {
      real = realpathSync(absolute)
    } catch {
      throw new Error(`${owner}: config.root "${root}" (${absolute}) does not exist; create it or set root to an existing folder`)
    }
    if (!statSync(real).isDirectory()) {
      throw new Error(`${owner}: config.root "${root}" (${absolute}) is not a directory`)
    }
    return new Root(absolute, real, options.noun ?? 'path')
  }

  /** Resolves `input` (relative to the root, or absolute). Throws `TOOL_DENIED`, `NOT_FOUND` or `WRONG_TYPE`. */
  async resolve(input: string): Promise<Resolved> {
    if (input.includes('\0')) throw new WorkspaceError(TOOL_DENIED, `${this.noun} "${input.replace(/\0/g, '\\0')}" contains a NUL byte`)
    const lexical = path.resolve(this.path, input)
    const base = inside(lexical, this.path) ? this.path : inside(lexical, this.real) ? this.real : undefined
    if (base === undefined) {
      const how = input.split(/[\\/]/).includes('..') ? 'its ".." segments lead out of' : 'it is outside'
      throw new WorkspaceError(TOOL_DENIED, `${this.noun} "${input}" is refused: ${how} the root ${this.path}`)
    }
    let real: string
    try {
      real = await realpathLoose(lexical, 0)
    } catch (error) {
      explain(error, input)
    }
    if (!inside(real, this.real)) {
      throw new WorkspaceError(TOOL_DENIED,
        `${this.noun} "${input}" is refused: a symbolic link on it leads to ${real}, outside the root ${this.path}`)
    }
    return { real, shown: toShown(path.relative(base, lexical)) }
  }

  /** How the model is shown an absolute real path inside the root. */
  show(real: string): string {
    return toShown(path.relative(this.real, real))
  }
}

/** Whether `target` is `dir` or lies below it (both absolute and normalized). */
export function inside(target: string, dir: string): boolean {
  if (target === dir) return true
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep
  return target.startsWith(prefix)
}

function toShown(relative: string): string {
  return relative === '' ? '.' : relative.split(path.sep).join('/')
}

/**
 * `realpath` that also works for paths that do not exist yet (a file about to be written):
 * the missing tail is appended to the real path of its deepest existing ancestor, and a
 * dangling symbolic link is followed to where it points.
 */
async function realpathLoose(target: string, links: number): Promise<string> {
  try {
    return await realpath(target)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error
  }
  const stat = await lstat(target).catch((error: { code?: unknown }) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (stat?.isSymbolicLink()) {
    if (links >= MAX_LINKS) throw Object.assign(new Error(`too many symbolic links at ${target}`), { code: 'ELOOP' })
    const to = await readlink(target).catch((error: { code?: unknown }) => {
      if (error.code === 'EINVAL') return undefined // no longer a link: it changed meanwhile, look again
      throw error
    })
    return to === undefined ? realpathLoose(target, links + 1) : realpathLoose(path.resolve(path.dirname(target), to), links + 1)
  }
  const parent = path.dirname(target)
  if (parent === target) return target
  return path.join(await realpathLoose(parent, links), path.basename(target))
}
