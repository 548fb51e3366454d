// One vitest project per package that has a `test/` folder. Every `@rein/*` import resolves
// to that package's TypeScript source, so tests never depend on a stale build or bundle.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineWorkspace } from 'vitest/config'

// Paths are taken from this file's folder, so a package's own `test` script works too.
const here = dirname(fileURLToPath(import.meta.url))
const groups = ['packages', 'plugins', 'apps', 'examples'].map((group) => resolve(here, group))
const dirs = groups
  .filter((group) => existsSync(group))
  .flatMap((group) => readdirSync(group).map((name) => `${group}/${name}`))
  .filter((dir) => existsSync(`${dir}/package.json`))

// Each `exports` entry (`.` and subpaths such as `@rein/kernel/results`) maps to the source its
// `types` names, never to the bundle the `default` condition points at.
const alias = dirs.flatMap((dir) => {
  const { name, exports } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { name: string, exports?: Record<string, { types?: string }> }
  return Object.entries(exports ?? {}).flatMap(([key, target]) => {
    const stem = /^\.\/dist\/src\/(.+)\.d\.ts$/.exec(target.types ?? '')?.[1]
    if (!stem || !existsSync(`${dir}/src/${stem}.ts`)) return []
    const specifier = name + key.slice(1)
    return [{ find: new RegExp(`^${specifier.replace(/[/.-]/g, '\\$&')}$`), replacement: resolve(dir, `src/${stem}.ts`) }]
  })
})

export default defineWorkspace(dirs
  .filter((dir) => existsSync(`${dir}/test`))
  .map((dir) => ({
    resolve: { alias },
    test: {
      name: basename(dir),
      root: resolve(dir),
      include: ['test/**/*.test.ts'],
      testTimeout: 20_000,
    },
  })))
