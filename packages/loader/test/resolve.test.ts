import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ValueProblem } from '../src/errors.js'
import { exportTarget, nodeModulesAbove, resolveModule } from '../src/resolve.js'
import { LOADER_NODE_MODULES, project } from './helpers.js'

const problemOf = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    return error as ValueProblem
  }
  throw new Error('expected a problem')
}

const fakePackage = (name: string, manifest: object, files: Record<string, string> = {}) => ({
  [`node_modules/${name}/package.json`]: JSON.stringify({ name, ...manifest }),
  ...Object.fromEntries(Object.entries(files).map(([path, text]) => [`node_modules/${name}/${path}`, text])),
})

describe('resolveModule', () => {
  it('resolves a local file from the config folder, with or without its extension', async () => {
    const dir = await project({ 'policies/no-friday.ts': 'export {}' })
    const file = realpathSync(join(dir, 'policies/no-friday.ts'))
    expect(resolveModule('./policies/no-friday.ts', dir)).toEqual({ file, origin: 'local' })
    expect(resolveModule('./policies/no-friday', dir).file).toBe(file)
  })

  it('says which local file it could not find', async () => {
    const dir = await project({})
    expect(problemOf(() => resolveModule('./missing.ts', dir)).detail).toBe(
      `cannot find the local file ${join(dir, 'missing.ts')} (paths in "use" are relative to the config's folder ${dir}); check the path, or name a package instead`)
  })

  it('prefers a package next to the config over rein\'s own copy', async () => {
    const dir = await project(fakePackage('cordis', { exports: { '.': { types: './x.d.ts', import: './esm.mjs', require: './cjs.cjs' } } }, { 'esm.mjs': '' }))
    expect(resolveModule('cordis', dir)).toEqual({ file: realpathSync(join(dir, 'node_modules/cordis/esm.mjs')), origin: 'config' })
  })

  it('falls back to rein\'s installation when the config folder has no such package', async () => {
    const dir = await project({})
    const found = resolveModule('@rein/kernel', dir)
    expect(found.origin).toBe('rein')
    expect(found.file).toBe(realpathSync(join(LOADER_NODE_MODULES, '@rein/kernel/dist/src/index.bundle.js')))
  })

  it('says everywhere it looked for a package that does not resolve', async () => {
    const dir = await project({})
    const { code, detail } = problemOf(() => resolveModule('@rein/plugin-nope', dir))
    expect(code).toBe('MODULE_NOT_FOUND')
    expect(detail).toContain(`cannot find package "@rein/plugin-nope"; looked in ${nodeModulesAbove(dir).join(', ')} (from the config's folder)`)
    expect(detail).toContain(`${LOADER_NODE_MODULES},`)
    expect(detail).toMatch(/\(from rein's installation\)\. Install it next to the config \(npm install @rein\/plugin-nope\), or use \.\/path\/to\/plugin\.ts for a local file$/)
  })

  it('suggests the standard package a misspelt name is close to', async () => {
    const dir = await project({})
    expect(problemOf(() => resolveModule('@rein/plugin-timeout-polcy', dir)).detail)
      .toMatch(/^cannot find package "@rein\/plugin-timeout-polcy" \(did you mean "@rein\/plugin-timeout-policy"\?\); looked in /)
    expect(problemOf(() => resolveModule('@rein/tool-fs', dir)).detail).toMatch(/^cannot find package "@rein\/tool-fs" \(did you mean "@rein\/tools-fs"\?\); /)
    expect(problemOf(() => resolveModule('left-pad', dir)).detail).toMatch(/^cannot find package "left-pad"; looked in /)
  })

  it('says when a package is found but its entry file is missing (not built)', async () => {
    const dir = await project(fakePackage('half-built', { exports: { '.': { default: './dist/index.js' } } }))
    expect(problemOf(() => resolveModule('half-built', dir)).detail).toBe(
      `package "half-built" was found at ${join(dir, 'node_modules/half-built')}, but its entry ${join(dir, 'node_modules/half-built/dist/index.js')} does not exist; build it first (in the rein workspace: npx -y pnpm@10 build)`)
  })

  it('rejects something that is neither a package name nor a path', async () => {
    expect(problemOf(() => resolveModule('plugins\\retry', '/tmp')).detail).toBe('"plugins\\retry" is neither a package name nor a path; local files start with ./ or ../')
  })
})

describe('exportTarget', () => {
  it('picks the import condition in key order and skips types and require', () => {
    expect(exportTarget({ '.': { types: './a.d.ts', require: './a.cjs', import: './a.mjs' } }, '.')).toBe('./a.mjs')
    expect(exportTarget({ require: './a.cjs', default: './a.js' }, '.')).toBe('./a.js')
    expect(exportTarget('./main.js', '.')).toBe('./main.js')
  })

  it('matches subpaths exactly or through one * pattern', () => {
    const exports = { '.': './i.js', './tools': './t.js', './plugins/*': { import: './p/*.mjs' } }
    expect(exportTarget(exports, './tools')).toBe('./t.js')
    expect(exportTarget(exports, './plugins/fs')).toBe('./p/fs.mjs')
    expect(exportTarget(exports, './hidden')).toBeUndefined()
  })
})
