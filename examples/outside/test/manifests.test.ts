/**
 * Every publishable package is ready for a stranger's npm before anything is packed: ESM,
 * `exports` with types, `files` that hold what `exports` and `bin` name and no tests,
 * `engines`, public access, a README, and one cordis shared with the user's code — a peer
 * (`peerDependencies`, never `dependencies`) of every package that imports it, at the version
 * the CLI depends on (the CLI is the one place that installs it, so `npx rein` works alone).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { publishable, REPO, type Manifest } from './helpers.js'

const packages = publishable()
const cli = packages.find((p) => p.manifest.name === '@rein/cli')!.manifest
const CORDIS = cli.dependencies?.cordis

/** Whether a source file of the package imports cordis (types included). */
function importsCordis(dir: string): boolean {
  const visit = (folder: string): boolean => readdirSync(folder, { withFileTypes: true }).some((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return visit(path)
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && /from ['"]cordis['"]/.test(readFileSync(path, 'utf8'))
  })
  return existsSync(join(dir, 'src')) && visit(join(dir, 'src'))
}

function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets)
  return []
}

const covered = (manifest: Manifest, path: string) =>
  (manifest.files ?? []).some((entry) => path.replace(/^\.\//, '').startsWith(`${entry.replace(/\/$/, '')}/`))

describe.each(packages.map((p) => [relative(REPO, p.dir), p]))('%s', (_, { dir, manifest }) => {
  it('is ESM with exports that give types and code, and a README', () => {
    expect(manifest.type).toBe('module')
    expect(manifest.exports).toMatchObject({ '.': { types: expect.stringMatching(/\.d\.ts$/), default: expect.stringMatching(/\.m?js$/) } })
    expect(existsSync(join(dir, 'README.md'))).toBe(true)
  })

  it('ships what exports and bin name, and no tests', () => {
    for (const target of [...exportTargets(manifest.exports), ...Object.values(manifest.bin ?? {})]) {
      expect(covered(manifest, target), `${target} is outside "files"`).toBe(true)
    }
    expect(manifest.files ?? []).not.toContain('dist')
    expect((manifest.files ?? []).filter((f) => /(^|\/)test/.test(f))).toEqual([])
  })

  it('says Node 20 and public access', () => {
    expect(manifest.engines?.node).toBe('>=20')
    expect(manifest.publishConfig?.access).toBe('public')
  })

  it('shares the one cordis: a peer where it is imported, at the version the CLI installs', () => {
    if (manifest.name === '@rein/cli') {
      expect(manifest.peerDependencies?.cordis).toBeUndefined()
      return
    }
    expect(manifest.dependencies?.cordis, 'cordis belongs in peerDependencies').toBeUndefined()
    if (importsCordis(dir)) expect(manifest.peerDependencies?.cordis).toBe(CORDIS)
    for (const field of ['peerDependencies', 'devDependencies'] as const) {
      if (manifest[field]?.cordis) expect(manifest[field]?.cordis, field).toBe(CORDIS)
    }
  })
})

it('the CLI installs cordis itself, pinned', () => {
  expect(CORDIS).toMatch(/^\d+\.\d+\.\d+$/)
})
