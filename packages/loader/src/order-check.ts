/**
 * The order check of a built harness: which package each applied entry is, what its
 * package.json declares about order, and a warning for each pair listed against it. An entry
 * of rein.yaml that names a package is that package; an entry given in code is recognised when
 * it is the very module a standard plugin package exports; a local file is no package and is
 * not checked. A declaration of the wrong shape is a warning too. Nothing here throws: the
 * check only ever adds warnings.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isPlainObject } from './config.js'
import { pluginOf } from './modules.js'
import { orderWarnings, readOrderDeclaration, type OrderedPlugin } from './order.js'
import { isLocalSpecifier, resolveModule } from './resolve.js'
import { STANDARD_PACKAGES } from './standard.js'

/** An applied plugin or tool entry, in list order. */
export interface PlacedEntry {
  /** `rein.yaml:9 plugins[3] (@rein/plugin-retry)`, or `plugins[3] (retry)` from code. */
  where: string
  /** `plugins[3] (@rein/plugin-retry)`. */
  label: string
  /** What `use:` says; undefined for an entry given in code. */
  use: string | undefined
  plugin: unknown
  /** The module file, when the entry came from one. */
  file: string | undefined
}

/** A package: its name, its package.json (path and content). */
interface PackageFound {
  name: string
  path: string
  manifest: Record<string, unknown>
}

const HERE = dirname(fileURLToPath(import.meta.url))

/** The order warnings of `entries`, in list order; a malformed declaration first. */
export async function checkOrder(entries: readonly PlacedEntry[]): Promise<string[]> {
  if (entries.length < 2) return []
  const problems: string[] = []
  const plugins: OrderedPlugin[] = []
  for (const entry of entries) {
    const found = await packageOf(entry)
    if (!found) continue
    const declaration = readOrderDeclaration(found.manifest)
    if (typeof declaration === 'string') {
      problems.push(`${entry.where}: ${found.path} declares its order wrongly: ${declaration}; its order is not checked`)
    }
    plugins.push({
      where: entry.where, label: entry.label, package: found.name,
      declaration: typeof declaration === 'string' ? undefined : declaration,
    })
  }
  return [...problems, ...orderWarnings(plugins)]
}

/** The package an entry is, or undefined (a local file, a plugin built in code, an unreadable package.json). */
async function packageOf(entry: PlacedEntry): Promise<PackageFound | undefined> {
  if (entry.use !== undefined) {
    return isLocalSpecifier(entry.use) || entry.file === undefined ? undefined : manifestAbove(entry.file)
  }
  const name = isPlainObject(entry.plugin) || typeof entry.plugin === 'function' ? (entry.plugin as { name?: unknown }).name : undefined
  const candidate = `@rein/plugin-${String(name)}`
  if (!(STANDARD_PACKAGES as readonly string[]).includes(candidate)) return undefined
  try {
    // The same specifier the caller imported, resolved from here: the same module when it is the same package.
    if (pluginOf(await import(candidate)) !== entry.plugin) return undefined
    // Node's own answer for the import above (20.6 and later), else the loader's lookup: the same file.
    const url = import.meta.resolve?.(candidate)
    return manifestAbove(url === undefined ? resolveModule(candidate, HERE).file : fileURLToPath(url))
  } catch {
    return undefined
  }
}

/**
 * The nearest package.json above `file` that has a name: the package the file belongs to
 * (one without a name, such as `{ "type": "module" }` in a build folder, is passed over).
 */
function manifestAbove(file: string): PackageFound | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) {
      const manifest = readManifest(path)
      if (manifest === undefined) return undefined
      if (typeof manifest.name === 'string') return { name: manifest.name, path, manifest }
    }
    if (dirname(dir) === dir) return undefined
  }
}

function readManifest(path: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return isPlainObject(value) ? value : undefined
  } catch {
    return undefined
  }
}
