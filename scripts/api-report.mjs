#!/usr/bin/env node
/**
 * The public surface of every publishable package, as text: for each entry point in its
 * `exports`, every exported name, whether it is a value or only a type, and a value's type.
 * Each package's report is `api-report.txt` beside its package.json; a test
 * (`examples/outside/test/api-report.test.ts`) fails when the code's surface differs from
 * the file, so a package's surface cannot grow or change without a reviewed diff.
 *
 *   node scripts/api-report.mjs            rewrites every report from the sources
 *   node scripts/api-report.mjs --check    exits 1, naming each package whose report is stale
 *
 * Reads the TypeScript sources (`src/*.ts` for the `dist/src/*.d.ts` an export names); needs
 * no build.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const GROUPS = ['packages', 'plugins', 'apps']
export const REPORT = 'api-report.txt'

/** Every publishable package: its folder, name and entry points (export path -> source file). */
export function packages() {
  const found = []
  for (const group of GROUPS) {
    for (const name of readdirSync(join(ROOT, group)).sort()) {
      const dir = join(ROOT, group, name)
      const file = join(dir, 'package.json')
      if (!existsSync(file)) continue
      const manifest = JSON.parse(readFileSync(file, 'utf8'))
      if (manifest.private) continue
      const entries = Object.entries(manifest.exports ?? {})
        .map(([path, target]) => [path, typeof target === 'string' ? target : target.types])
        .filter(([, types]) => typeof types === 'string')
        .map(([path, types]) => [path, join(dir, types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'))])
      found.push({ dir, name: manifest.name, entries })
    }
  }
  return found
}

/** Each package's report text, from one TypeScript program over every entry point. */
export function reports() {
  const all = packages()
  const program = ts.createProgram(all.flatMap((p) => p.entries.map(([, file]) => file)), {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, skipLibCheck: true, noEmit: true,
  })
  const checker = program.getTypeChecker()
  const flags = ts.TypeFormatFlags.NoTruncation
  return all.map((pkg) => {
    const lines = [`# ${pkg.name}: public surface (node scripts/api-report.mjs rewrites this file)`]
    for (const [path, file] of pkg.entries) {
      const source = program.getSourceFile(file)
      lines.push('', `## ${path}`)
      if (!source) {
        lines.push(`(no source at ${relative(ROOT, file)})`)
        continue
      }
      const module = checker.getSymbolAtLocation(source)
      const exported = module ? checker.getExportsOfModule(module) : []
      for (const symbol of [...exported].sort((a, b) => a.name.localeCompare(b.name))) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
        const typeOnly = symbol.declarations?.some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly))
        const isValue = !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0
        const isType = (target.flags & ts.SymbolFlags.Type) !== 0
        if (!isValue) {
          lines.push(`type ${symbol.name}`)
          continue
        }
        const type = checker.getTypeOfSymbolAtLocation(target, source)
        const text = checker.typeToString(type, undefined, flags).replace(/import\("[^"]*"\)\./g, '')
          .replace(/import\("[^"]*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/[^"]*"\)/g, 'import("$1")')
        lines.push(`${isType ? 'value+type' : 'value'} ${symbol.name}: ${text}`)
      }
    }
    return { pkg, text: `${lines.join('\n')}\n` }
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check')
  let stale = 0
  for (const { pkg, text } of reports()) {
    const file = join(pkg.dir, REPORT)
    const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined
    if (current === text) continue
    if (check) {
      process.stderr.write(`${pkg.name}: ${relative(ROOT, file)} is ${current === undefined ? 'missing' : 'stale'}\n`)
      stale++
    } else {
      writeFileSync(file, text)
      process.stdout.write(`wrote ${relative(ROOT, file)}\n`)
    }
  }
  process.exit(stale ? 1 : 0)
}
