// One vitest project per package that has a `test/` folder. Every `@rein/*` import resolves
// to that package's TypeScript source, so tests never depend on a stale build.
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

const alias = dirs
  .filter((dir) => existsSync(`${dir}/src/index.ts`))
  .map((dir) => {
    const { name } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { name: string }
    return { find: new RegExp(`^${name.replace('/', '\\/')}$`), replacement: resolve(dir, 'src/index.ts') }
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
