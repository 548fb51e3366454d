/**
 * Where the CLI's own files are: the package folder (found by walking up from this module to
 * the package.json of `@rein/cli`, so it works from `src/` under tests and from `dist/src/`
 * when built) and the demo's assets in it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let root: string | undefined

/** The folder of the `@rein/cli` package. */
export function packageRoot(): string {
  if (root) return root
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@rein/cli') return root = dir
    if (dirname(dir) === dir) throw new Error('cannot find the @rein/cli package folder above ' + fileURLToPath(import.meta.url))
  }
}

/** The demo's harness file. */
export function demoConfig(): string {
  return join(packageRoot(), 'demo', 'rein.yaml')
}
