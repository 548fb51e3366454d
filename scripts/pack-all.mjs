#!/usr/bin/env node
/**
 * Packs every publishable package of the workspace (each package.json under packages/,
 * plugins/ and apps/ that is not private) with `pnpm pack`, which writes real versions in
 * place of `workspace:*`, and checks every tarball before anyone installs it: no `workspace:`
 * range is left, `engines.node` is set, a README is in it, and so is every file its `exports`
 * and `bin` name. Prints `{ tarballs: [{ name, version, file, bytes }] }` as JSON on stdout.
 *
 *   node scripts/pack-all.mjs <out-dir> [--build]     --build runs `tsc -b` and scripts/bundle.mjs first
 *
 * Each package's `exports` point at the bundles in `dist/src` (`*.bundle.js` and their chunks),
 * which `files: ["dist/src"]` packs beside tsc's output and types.
 *
 * Exits 1 with one line per problem (package, then what is missing) when a tarball is incomplete.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const GROUPS = ['packages', 'plugins', 'apps']
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies']

const [outArg, ...flags] = process.argv.slice(2)
if (!outArg || outArg.startsWith('-')) {
  process.stderr.write('usage: node scripts/pack-all.mjs <out-dir> [--build]\n')
  process.exit(2)
}
const out = resolve(outArg)
mkdirSync(out, { recursive: true })

if (flags.includes('--build')) {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
}

const packages = publishable()
execFileSync('npx', ['-y', 'pnpm@10', ...packages.flatMap((p) => ['--filter', p.name]), '-r', 'pack', '--pack-destination', out],
  { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })

const problems = []
const tarballs = packages.map(({ name, version }) => {
  const file = join(out, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`)
  if (!existsSync(file)) {
    problems.push(`${name}: pnpm pack wrote no ${file}`)
    return { name, version, file, bytes: 0 }
  }
  for (const problem of checkTarball(file)) problems.push(`${name}: ${problem}`)
  return { name, version, file, bytes: statSync(file).size }
})

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`)
  process.exit(1)
}
process.stdout.write(`${JSON.stringify({ tarballs }, null, 2)}\n`)

/** Every package that is meant to be published, in folder order. */
function publishable() {
  const found = []
  for (const group of GROUPS) {
    const base = join(ROOT, group)
    if (!existsSync(base)) continue
    for (const folder of readdirSync(base).sort()) {
      const manifestPath = join(base, folder, 'package.json')
      if (!existsSync(manifestPath)) continue
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
      if (!manifest.private) found.push({ name: manifest.name, version: manifest.version })
    }
  }
  return found
}

/** What is wrong with one tarball; empty when it is complete. */
function checkTarball(file) {
  const entries = new Set(tar(['-tzf', file]).split('\n').filter(Boolean).map((path) => path.replace(/^package\//, '')))
  const manifest = JSON.parse(tar(['-xzOf', file, 'package/package.json']))
  const problems = []
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${dep} is still "${range}"`)
    }
  }
  if (!manifest.engines?.node) problems.push('package.json has no engines.node')
  if (!entries.has('README.md')) problems.push('no README.md')
  if (!manifest.exports) problems.push('package.json has no exports')
  const named = [...targets(manifest.exports), ...targets(manifest.bin), ...targets(manifest.types)]
  for (const target of named) {
    const path = target.replace(/^\.\//, '')
    if (!entries.has(path)) problems.push(`${target} is named in package.json but not in the tarball (built? listed in files?)`)
  }
  if (manifest.exports && !targets(manifest.exports).some((t) => t.endsWith('.d.ts'))) problems.push('exports name no types (.d.ts)')
  return problems
}

/** Every file path string inside an exports/bin value. */
function targets(value) {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets)
  return []
}

function tar(args) {
  return execFileSync('tar', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
}
