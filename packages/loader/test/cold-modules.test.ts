/**
 * A harness built in code loads only what its first call needs (the peer bench's `cold.mjs`
 * measures the time): neither `yaml` (no file is parsed) nor ajv (simple schemas are checked
 * by `simple-schema.ts` until a value fails), rein's own code as one bundle per package export
 * (`scripts/bundle.mjs`), never tsc's per-file output, and cordis as the one module
 * `@rein/kernel/cordis` (reggol, its logger, apart: `bundled-cordis.test.ts` says why). Checks the
 * modules, never the time. The spawned
 * fixture imports the built packages: run `npx -y pnpm@10 build` first.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from './helpers.js'

function coldRun(mode: 'valid' | 'invalid'): { modules: string[], esm: string[], answers: string[] } {
  if (!existsSync(new URL('../dist/src/index.bundle.js', import.meta.url))) throw new Error('packages/loader is not built: run npx -y pnpm@10 build first')
  const run = spawnSync(process.execPath, [join(FIXTURES, 'cold-harness.mjs'), mode], { encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as { modules: string[], esm: string[], answers: string[] }
}

const matching = (modules: readonly string[], pattern: RegExp) => modules.filter((m) => pattern.test(m))

describe('a harness built in code, cold', () => {
  it('loads neither yaml nor ajv for valid calls', () => {
    const { modules, answers } = coldRun('valid')
    expect(answers).toEqual(['ok'])
    expect(matching(modules, /\/reggol\//)).not.toEqual([]) // the probe sees CommonJS modules
    expect(matching(modules, /\/(yaml|ajv|ajv-formats)\//)).toEqual([])
  })

  it('loads cordis as one bundle, not its twelve files', () => {
    const { modules, esm } = coldRun('valid')
    expect(esm).toEqual(expect.arrayContaining([expect.stringMatching(/\/packages\/kernel\/dist\/src\/cordis\.bundle\.js$/)]))
    const cordisFiles = /\/node_modules\/(cordis|@cordisjs\/[^/]+|schemastery)\//
    expect(matching(esm, cordisFiles)).toEqual([])
    expect(matching(modules, cordisFiles)).toEqual([])
    // Only reggol (and what it requires) is loaded from node_modules: the Logger the user's cordis shares.
    expect(matching(esm, /\/node_modules\//).filter((url) => !/\/reggol\//.test(url))).toEqual([])
  })

  it('loads rein as bundles: one file per package entry and its shared chunk, no per-file output', () => {
    const { esm } = coldRun('valid')
    const rein = matching(esm, /\/(packages|plugins)\/[^/]+\/dist\//)
    expect(rein).toEqual(expect.arrayContaining([expect.stringMatching(/\/packages\/kernel\/dist\/src\/index\.bundle\.js$/)])) // the probe sees them
    expect(rein.filter((url) => !/\/dist\/src\/(index\.bundle|cordis\.bundle|bundle-[A-Z0-9]+)\.js$/.test(url))).toEqual([])
    // loader, kernel, agent, the six plugins and the packages they import, each once
    expect(new Set(rein.map((url) => /\/((?:packages|plugins)\/[^/]+)\//.exec(url)![1])).size).toBeLessThanOrEqual(15)
    // Built without esbuild's keepNames: its `__name(fn, "…")` runs each time a closure is made,
    // on the call path too, and made every per-call row of the peer bench 1.5–2 × slower.
    // (cordis' own build names its functions that way: `cordis.bundle.js` keeps what it was given.)
    const named = rein.filter((url) => !url.endsWith('/cordis.bundle.js') && readFileSync(fileURLToPath(url), 'utf8').includes('__name('))
    expect(named).toEqual([])
  })

  it('loads ajv for the first invalid call, which gets ajv\'s own lines', () => {
    const { modules, answers } = coldRun('invalid')
    expect(answers[0]).toBe('ok')
    expect(answers[1]).toMatch(/\/path: must be string/)
    expect(answers[1]).toMatch(/missing required property "line"/)
    expect(matching(modules, /\/ajv\//)).not.toEqual([])
    expect(matching(modules, /\/yaml\//)).toEqual([])
  })
})
