/**
 * Finds the file a `use:` names, without importing it. A path (`./x.ts`, `../x.js`, `/abs`)
 * is a local file from the config's folder. A package name is looked up in the node_modules
 * folders above the config file first, then above rein's own installation, and its entry is
 * read from `exports` with the conditions `import`, `node`, `default` (else `main`). A miss
 * is a `ValueProblem` that lists every folder it looked in.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LoaderCodes, ValueProblem } from './errors.js'
import { STANDARD_PACKAGES } from './standard.js'
import { didYouMean } from './suggest.js'

/** A module file ready to import. */
export interface ResolvedModule {
  /** Absolute real path of the file. */
  file: string
  /** `local` for a path in the config; else where the package was found. */
  origin: 'local' | 'config' | 'rein'
}

const EXPORT_CONDITIONS = ['import', 'node', 'default']
const LOCAL_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs']
const PACKAGE_NAME = /^((?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*)(\/.*)?$/i

/** Whether `use` names a local file rather than a package. */
export function isLocalSpecifier(use: string): boolean {
  return use.startsWith('./') || use.startsWith('../') || isAbsolute(use)
}

/** Resolves `use` for a config that lives in `configDir`. Throws `ValueProblem` when nothing matches. */
export function resolveModule(use: string, configDir: string): ResolvedModule {
  return isLocalSpecifier(use) ? resolveLocal(use, configDir) : resolvePackage(use, configDir)
}

function resolveLocal(use: string, configDir: string): ResolvedModule {
  const base = resolve(configDir, use)
  const candidates = [base, ...LOCAL_EXTENSIONS.map((ext) => base + ext), ...LOCAL_EXTENSIONS.map((ext) => join(base, `index${ext}`))]
  const file = candidates.find(isFile)
  if (!file) {
    throw new ValueProblem(LoaderCodes.MODULE_NOT_FOUND, [],
      `cannot find the local file ${base} (paths in "use" are relative to the config's folder ${configDir}); check the path, or name a package instead`)
  }
  return { file: realpathSync(file), origin: 'local' }
}

function resolvePackage(use: string, configDir: string): ResolvedModule {
  const match = PACKAGE_NAME.exec(use)
  if (!match) {
    throw new ValueProblem(LoaderCodes.CONFIG_INVALID, [], `"${use}" is neither a package name nor a path; local files start with ./ or ../`)
  }
  const name = match[1]!
  const subpath = match[2] ? `.${match[2]}` : '.'
  const fromConfig = nodeModulesAbove(configDir)
  const fromRein = nodeModulesAbove(dirname(fileURLToPath(import.meta.url))).filter((dir) => !fromConfig.includes(dir))
  for (const [origin, dirs] of [['config', fromConfig], ['rein', fromRein]] as const) {
    for (const dir of dirs) {
      const root = join(dir, name)
      if (!isFile(join(root, 'package.json'))) continue
      return { file: realpathSync(packageEntry(root, name, subpath)), origin }
    }
  }
  throw new ValueProblem(LoaderCodes.MODULE_NOT_FOUND, [],
    `cannot find package "${name}"${didYouMean(name, STANDARD_PACKAGES)}; looked in ${fromConfig.join(', ')} (from the config's folder)` +
    (fromRein.length ? ` and ${fromRein.join(', ')} (from rein's installation)` : '') +
    `. Install it next to the config (npm install ${name}), or use ./path/to/plugin.ts for a local file`)
}

/** The `node_modules` folders Node would search from `dir`, nearest first. */
export function nodeModulesAbove(dir: string): string[] {
  const out: string[] = []
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (basename(current) !== 'node_modules') out.push(join(current, 'node_modules'))
    if (dirname(current) === current) return out
  }
}

function packageEntry(root: string, name: string, subpath: string): string {
  let manifest: { exports?: unknown, main?: unknown }
  try {
    manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  } catch (error) {
    throw new ValueProblem(LoaderCodes.MODULE_LOAD_FAILED, [], `package "${name}" at ${root} has an unreadable package.json: ${(error as Error).message}`)
  }
  let target: string | undefined
  if (manifest.exports !== undefined && manifest.exports !== null) {
    target = exportTarget(manifest.exports, subpath)
    if (target === undefined) {
      throw new ValueProblem(LoaderCodes.MODULE_NOT_FOUND, [],
        `package "${name}" at ${root} does not export "${subpath}" for import (its package.json "exports" has no matching entry)`)
    }
  } else if (subpath === '.') {
    target = typeof manifest.main === 'string' ? manifest.main : 'index.js'
  } else {
    target = subpath
  }
  const file = resolve(root, target)
  const found = [file, ...(extname(file) ? [] : ['.js', '.mjs'].map((ext) => file + ext))].find(isFile)
  if (!found) {
    throw new ValueProblem(LoaderCodes.MODULE_NOT_FOUND, [],
      `package "${name}" was found at ${root}, but its entry ${file} does not exist; build it first (in the rein workspace: npx -y pnpm@10 build)`)
  }
  return found
}

/** The target of `subpath` in an `exports` field, for an ESM import; undefined when not exported. */
export function exportTarget(exports: unknown, subpath: string): string | undefined {
  const isSubpathMap = isRecord(exports) && Object.keys(exports).some((key) => key.startsWith('.'))
  if (!isSubpathMap) return subpath === '.' ? conditionTarget(exports) : undefined
  const map = exports as Record<string, unknown>
  if (Object.hasOwn(map, subpath)) return conditionTarget(map[subpath])
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*')
    if (star < 0) continue
    const head = key.slice(0, star)
    const tail = key.slice(star + 1)
    if (subpath.startsWith(head) && subpath.endsWith(tail) && subpath.length >= head.length + tail.length) {
      const hole = subpath.slice(head.length, subpath.length - tail.length)
      return conditionTarget(value)?.replaceAll('*', hole)
    }
  }
  return undefined
}

function conditionTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = conditionTarget(item)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (isRecord(value)) {
    for (const [condition, inner] of Object.entries(value)) {
      if (!EXPORT_CONDITIONS.includes(condition)) continue
      const found = conditionTarget(inner)
      if (found !== undefined) return found
    }
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile()
}
