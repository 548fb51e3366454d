/** Test helpers: temp project folders with real files, and the path of the fixture plugins. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'

/** Absolute path of `test/fixtures`. */
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))

/** The loader package's own node_modules (has cordis and every @rein package). */
export const LOADER_NODE_MODULES = fileURLToPath(new URL('../node_modules', import.meta.url))

const made: string[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * Creates a temp folder holding `files` (path -> content; folders are created) and returns
 * its path. The folder is removed after the test.
 */
export async function project(files: Record<string, string>, options: { linkNodeModules?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rein-loader-'))
  made.push(dir)
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  if (options.linkNodeModules) await symlink(LOADER_NODE_MODULES, join(dir, 'node_modules'), 'dir')
  return dir
}

/** A `use:` value reaching `test/fixtures/<name>` from `dir` (a `../` path). */
export function fixture(dir: string, name: string): string {
  return relative(dir, join(FIXTURES, name))
}

/**
 * A temp project whose `rein.yaml` is built from lines; `fx(name)` gives the `use:` path of a
 * fixture plugin from that folder. Returns the folder, the config path and its text.
 */
export async function harnessProject(lines: (fx: (name: string) => string) => string[], files: Record<string, string> = {}) {
  const dir = await project(files)
  const text = lines((name) => fixture(dir, name)).join('\n') + '\n'
  await writeFile(join(dir, 'rein.yaml'), text)
  return { dir, file: join(dir, 'rein.yaml'), text, fx: (name: string) => fixture(dir, name) }
}
