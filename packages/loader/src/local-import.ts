/**
 * Local `.ts`/`.js` modules, imported through tsx once per content. tsx's `tsImport` evaluates a
 * module afresh on every call (each call is its own module namespace), so a long-lived process
 * that loads a harness again and again — a worker building one per session — would keep every
 * copy. Here a module is evaluated again only when its file's content changed, so an edited
 * plugin still reloads; a failed import is forgotten, so a fixed file is tried again. Only the
 * file itself is compared: an edit to a module it imports shows once the file changes too.
 * Like Node's own module cache, this is per process, not per Context.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'

/** A module namespace (or a CommonJS module seen through `import()`). */
export type ModuleNamespace = Record<string, unknown>

/** The import of each file path, with the hash of the content it was made from. */
const imported = new Map<string, { hash: string, namespace: Promise<ModuleNamespace> }>()

/** The namespace of the local module at absolute path `file`, evaluated once per content. */
export async function importLocal(file: string): Promise<ModuleNamespace> {
  const hash = createHash('sha256').update(await readFile(file)).digest('hex')
  const known = imported.get(file)
  if (known?.hash === hash) return known.namespace
  const namespace = tsImport(file)
  imported.set(file, { hash, namespace })
  namespace.catch(() => { if (imported.get(file)?.namespace === namespace) imported.delete(file) })
  return namespace
}

async function tsImport(file: string): Promise<ModuleNamespace> {
  const { tsImport } = await import('tsx/esm/api')
  return await tsImport(pathToFileURL(file).href, { parentURL: import.meta.url }) as ModuleNamespace
}
