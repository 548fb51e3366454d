/**
 * The files that a resident's local modules import in turn, found by reading their source,
 * since Node does not say which files a module imported: every relative specifier (`from
 * './x'`, `import './x'`, `import('./x')`, `require('./x')`) that resolves to a file, followed
 * from file to file. Reading source text over-counts (an import in a comment), which costs at
 * most a resident restarting for nothing. Not seen: a specifier computed at run time, and
 * anything under `node_modules` (a package is not followed).
 */
import { readFileSync, statSync } from 'node:fs'
import { dirname, resolve, sep } from 'node:path'

/** A relative specifier after `from`, `import`, `import(` or `require(`. */
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"])(\.{1,2}\/[^'"\n]*)\1/g

/** What a specifier without its extension may name, as Node, `tsx` and TypeScript resolve it. */
const EXTENSIONS = ['', '.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.json']

/** `./x.js` may name `./x.ts` under `tsx` (TypeScript's own convention). */
const TS_FOR_JS: Record<string, string> = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts', '.jsx': '.tsx' }

/** The most files followed: a resident watches what it loaded, not a whole project. */
const MAX_FILES = 512

/** A file larger than this is not read for specifiers (it is still watched). */
const MAX_READ_BYTES = 4 * 1024 * 1024

/** The local files that `files` import, directly or in turn (not `files` themselves), in the order found. */
export function localImports(files: readonly string[]): string[] {
  const seen = new Set(files)
  const queue = files.filter(isLocal)
  const found: string[] = []
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.shift()!
    for (const specifier of specifiersIn(file)) {
      const target = resolveRelative(dirname(file), specifier)
      if (target === undefined || seen.has(target) || !isLocal(target)) continue
      seen.add(target)
      found.push(target)
      queue.push(target)
    }
  }
  return found
}

function isLocal(file: string): boolean {
  return !file.includes(`${sep}node_modules${sep}`)
}

/** The relative specifiers in `file`'s text; none when it cannot be read. */
function specifiersIn(file: string): string[] {
  let text: string
  try {
    if (statSync(file).size > MAX_READ_BYTES) return []
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return [...text.matchAll(SPECIFIER)].map((match) => match[2]!)
}

/** The file `specifier` names from `dir`, or undefined when none exists. */
function resolveRelative(dir: string, specifier: string): string | undefined {
  const base = resolve(dir, specifier.replace(/[?#].*$/, ''))
  const extension = /\.[cm]?jsx?$/.exec(base)?.[0]
  const candidates = [
    ...EXTENSIONS.map((ext) => base + ext),
    ...(extension ? [base.slice(0, -extension.length) + TS_FOR_JS[extension]] : []),
    ...EXTENSIONS.slice(1).map((ext) => `${base}${sep}index${ext}`),
  ]
  return candidates.find(isFile)
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}
