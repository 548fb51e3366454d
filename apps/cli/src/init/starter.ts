/**
 * The files `rein init` writes: the template folder `starter/` of this package, copied as it
 * is (`gitignore` becomes `.gitignore`: npm leaves dotfiles named .gitignore out of a
 * package), plus a package.json made for this CLI's version. Paths are relative, `/`-separated.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { packageRoot } from '../paths.js'
import { cliVersions, packageName, starterManifest } from './manifest.js'

/** One file to write. */
export interface StarterFile {
  path: string
  content: string
}

/** The template folder. */
export function templateFolder(): string {
  return join(packageRoot(), 'starter')
}

/** Every file of a starter for the folder named `folder`, sorted by path. */
export async function starterFiles(folder: string): Promise<StarterFile[]> {
  const root = templateFolder()
  const files: StarterFile[] = []
  for (const full of await filesUnder(root)) {
    const path = relative(root, full).split(sep).join('/')
    files.push({ path: path === 'gitignore' ? '.gitignore' : path, content: await readFile(full, 'utf8') })
  }
  files.push({ path: 'package.json', content: starterManifest(packageName(folder), cliVersions()) })
  return files.sort((a, b) => (a.path < b.path ? -1 : 1))
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...await filesUnder(full))
    else if (entry.isFile()) found.push(full)
  }
  return found
}
