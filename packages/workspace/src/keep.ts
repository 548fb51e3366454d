/**
 * Checking a list of paths found by walking the tree (a glob, a search). A walk goes by path,
 * so a folder swapped for a link while it runs can show names from outside; `keepInside`
 * keeps exactly the paths that are, when checked, regular files inside the root. Each folder
 * is opened once (never through a link at its end) and checked to be inside; its names are
 * then looked up in that open folder, without following a link. Order is kept.
 */
import { lstat } from 'node:fs/promises'
import path from 'node:path'
import { FOR, openInside, within } from './opened.js'
import type { Root } from './root.js'

/** Folders checked at once. */
const CHECK_WIDTH = 8

/** Those of `files` (absolute real paths) that are regular files inside the root. Throws only the signal's abort. */
export async function keepInside(root: Root, files: readonly string[], signal: AbortSignal): Promise<string[]> {
  const byFolder = new Map<string, string[]>()
  for (const file of files) {
    const folder = path.dirname(file)
    const names = byFolder.get(folder)
    if (names) names.push(file)
    else byFolder.set(folder, [file])
  }
  const kept = new Set<string>()
  const folders = [...byFolder]
  let next = 0
  await Promise.all(Array.from({ length: Math.min(CHECK_WIDTH, folders.length) }, async () => {
    while (next < folders.length) {
      signal.throwIfAborted()
      const [folder, inFolder] = folders[next++]
      for (const file of await filesInside(root, folder, inFolder)) kept.add(file)
    }
  }))
  return files.filter((file) => kept.has(file))
}

/** Those of `files` (all in `folder`) that are regular files, if `folder` opens inside the root. */
async function filesInside(root: Root, folder: string, files: string[]): Promise<string[]> {
  const dir = await openInside(root, folder, FOR.folder, folder).catch(() => undefined)
  if (!dir) return []
  try {
    const stats = await Promise.all(files.map((file) => lstat(within(dir, path.basename(file))).catch(() => undefined)))
    return files.filter((_, at) => stats[at]?.isFile())
  } finally {
    await dir.close()
  }
}
