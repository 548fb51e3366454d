/**
 * The starter's package.json: the rein packages at this CLI's own version, cordis at the one
 * version rein is built with (every rein package names it as a peer, so the project and rein
 * share one copy), and the scripts `check`, `chains`, `test`, `typecheck` and `run`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../paths.js'
import type { Additions } from './package-additions.js'

/** Dev tools of the starter: tsx runs the TypeScript test, tsc checks it. Kept equal to the workspace's own (a test checks). */
export const STARTER_DEV_TOOLS = { '@types/node': '^20.19.0', tsx: '^4.23.15', typescript: '^5.9.3' } as const

/** The rein packages the starter imports or runs. */
const REIN_PACKAGES = ['@rein/cli', '@rein/kernel', '@rein/provider-openai', '@rein/testing'] as const

/** What the manifest is built from: this CLI's version and its cordis. */
export interface Versions {
  rein: string
  cordis: string
}

/** The versions of the running CLI, read from its own package.json. */
export function cliVersions(root: string = packageRoot()): Versions {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string, dependencies?: Record<string, string> }
  const cordis = manifest.dependencies?.cordis
  if (!cordis) throw new Error(`${join(root, 'package.json')} has no cordis dependency; reinstall @rein/cli`)
  return { rein: manifest.version, cordis }
}

/** The package.json text of a starter called `name`. */
export function starterManifest(name: string, versions: Versions): string {
  const manifest = {
    name,
    version: '0.0.0',
    private: true,
    type: 'module',
    scripts: {
      check: 'rein check',
      chains: 'rein chains',
      test: 'tsx --test test/no-friday-deploys.test.ts',
      typecheck: 'tsc -p .',
      run: 'rein run',
    },
    dependencies: {
      ...Object.fromEntries(REIN_PACKAGES.map((pkg) => [pkg, `^${versions.rein}`])),
      cordis: versions.cordis,
    },
    devDependencies: { ...STARTER_DEV_TOOLS },
    engines: { node: '>=20' },
  }
  return `${JSON.stringify(manifest, null, 2)}\n`
}

/**
 * What an existing project needs to run the starter's files: `rein:` scripts (never one of the
 * project's own names) and the same packages as the starter's package.json.
 */
export function existingProjectAdditions(versions: Versions): Additions {
  return {
    scripts: { 'rein:check': 'rein check', 'rein:chains': 'rein chains', 'rein:test': 'tsx --test test/no-friday-deploys.test.ts' },
    dependencies: { ...Object.fromEntries(REIN_PACKAGES.map((pkg) => [pkg, `^${versions.rein}`])), cordis: versions.cordis },
    devDependencies: { ...STARTER_DEV_TOOLS },
  }
}

/** A package name from a folder name: lower case, only the characters npm allows. */
export function packageName(folder: string): string {
  const name = folder.toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+|-+$/g, '')
  return name === '' ? 'rein-harness' : name.slice(0, 214)
}
