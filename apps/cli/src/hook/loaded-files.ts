/**
 * The files a resident harness was loaded from — the config file, the module file of every
 * entry (`use: ./guard.mjs` and packages alike) and the example files the config names — so
 * that the resident answers only while each is as it was loaded: same size, mtime and content
 * (a SHA-256, tens of microseconds per file), and the files that local modules (`use: ./x`)
 * import in turn (`local-imports.ts`).
 */
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { isLocalSpecifier, type Harness } from '@rein/loader'
import { localImports } from './local-imports.js'

/**
 * How far a file's mtime may lag the clock: Linux stamps files with a clock that ticks every
 * few milliseconds, so a file written just after `Date.now()` may look a little older.
 */
const CLOCK_SLACK_MS = 20

/** One file as it is now: size, mtime and content hash, or `missing`. */
export function fingerprint(file: string): string {
  try {
    const { size, mtimeMs } = statSync(file)
    return `${size}:${mtimeMs}:${createHash('sha256').update(readFileSync(file)).digest('hex')}`
  } catch {
    return 'missing'
  }
}

/**
 * Whether any file `harness` was loaded from has changed. `config` is the config file's
 * fingerprint taken before loading; the module and example files, known only once loaded,
 * count as changed from the start when modified after `loadStartedAt` (the harness may hold
 * either version).
 */
export function changedSince(harness: Harness, config: string, loadStartedAt: number): () => boolean {
  const configFile = harness.config.file
  const modules = harness.entries.flatMap((entry) => entry.file ?? [])
  const local = harness.entries.flatMap(({ entry, file }) => file !== undefined && entry && isLocalSpecifier(entry.use) ? [file] : [])
  const others = [...new Set([...harness.config.examples, ...modules, ...localImports(local)])]
    .filter((file) => file !== configFile)
  const prints = others.map(fingerprint)
  const editedWhileLoading = others.some((file) => mtimeOf(file) >= loadStartedAt - CLOCK_SLACK_MS)
  return () => editedWhileLoading || fingerprint(configFile) !== config || others.some((file, i) => fingerprint(file) !== prints[i])
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return Number.NEGATIVE_INFINITY
  }
}
