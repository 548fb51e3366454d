// Test helpers: a fresh temp folder holding a root and a sibling folder outside it (with a
// secret file), removed when the test finishes.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'
import { Root, type RootOptions } from '../src/index.js'

export const SECRET = 'top secret\n'

export interface Tree {
  /** The root folder's real path. */
  root: string
  /** A sibling of the root, holding `secret.txt`. */
  outside: string
  /** The root, opened as a `Root`. */
  open(options?: RootOptions): Root
  /** Writes `files` (path relative to the root -> content). */
  put(files: Record<string, string>): Promise<void>
}

export async function tree(): Promise<Tree> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'rein-workspace-')))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const root = path.join(dir, 'root')
  const outside = path.join(dir, 'outside')
  await mkdir(root)
  await mkdir(outside)
  await writeFile(path.join(outside, 'secret.txt'), SECRET)
  return {
    root,
    outside,
    open: (options) => Root.open(root, 'test', options),
    async put(files) {
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(root, file)), { recursive: true })
        await writeFile(path.join(root, file), content)
      }
    },
  }
}

/** The code of what `promise` rejects with (fails the test when it resolves). */
export async function codeOfRejection(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
  } catch (error) {
    return (error as { code?: string }).code
  }
  throw new Error('expected a rejection')
}
