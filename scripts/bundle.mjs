#!/usr/bin/env node
/**
 * Bundles each workspace package's export entries into one ES module per entry, after `tsc -b`
 * (the root `build` script runs both; docs/ARCHITECTURE.md says why). For every `exports` entry
 * `{ types: './dist/src/X.d.ts', default: './dist/src/X.bundle.js' }` it bundles tsc's
 * `dist/src/X.js` into `dist/src/X.bundle.js`, beside the file it came from, so that paths taken
 * from `import.meta.url` (worker files, the package folder) stay the same. Entries of one package
 * share their internals through chunks (`dist/src/bundle-<hash>.js`), and every bare import
 * (`@rein/*`, third-party, `node:`) stays an import: one copy of each package per process.
 *
 * cordis is the exception (docs/ARCHITECTURE.md, "What `node` runs"): `@rein/kernel/cordis` is
 * cordis bundled — `@cordisjs/*`, cosmokit, schemastery — as one module, and every package that
 * depends on `@rein/kernel` imports cordis from there, so a process running rein loads cordis as
 * one file instead of twelve (six of them CommonJS). Its logger, reggol, is the user's
 * cordis' own (`sharedReggol`).
 *
 *   node scripts/bundle.mjs            every package (the root build, after tsc -b)
 *   node ../../scripts/bundle.mjs .    one package folder (its own build script, for turbo)
 *
 * Exits 1 naming the package when an `exports` entry does not follow the pattern above.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const GROUPS = ['packages', 'plugins', 'apps', 'examples']
const TYPES = /^\.\/dist\/src\/(.+)\.d\.ts$/
/** The package and entry that carry the bundled cordis, and the specifier rein's bundles import it by. */
const CORDIS = { package: '@rein/kernel', stem: 'cordis', specifier: '@rein/kernel/cordis' }

/** Every package folder of the workspace, or the folders named on the command line. */
function folders() {
  const named = process.argv.slice(2)
  if (named.length > 0) return named.map((dir) => resolve(dir))
  return GROUPS.map((group) => join(ROOT, group)).filter(existsSync)
    .flatMap((base) => readdirSync(base).sort().map((name) => join(base, name)))
}

/** The packages with `exports`, each with the tsc outputs to bundle (paths under `dist/src`). */
function bundled() {
  const found = []
  const problems = []
  for (const dir of folders()) {
    const file = join(dir, 'package.json')
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    if (!manifest.exports) continue
    const entries = []
    for (const [key, target] of Object.entries(manifest.exports)) {
      const stem = typeof target === 'object' && target !== null ? TYPES.exec(target.types ?? '')?.[1] : undefined
      if (!stem || target.default !== `./dist/src/${stem}.bundle.js`) {
        problems.push(`${manifest.name}: exports["${key}"] must be { types: "./dist/src/X.d.ts", default: "./dist/src/X.bundle.js" }`)
        continue
      }
      entries.push(stem)
    }
    const needs = { ...manifest.dependencies, ...manifest.peerDependencies }
    found.push({ name: manifest.name, dir, entries, sharesCordis: manifest.name === CORDIS.package || CORDIS.package in needs })
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`)
    process.exit(1)
  }
  return found
}

/** Makes `import … from 'cordis'` an import of `@rein/kernel/cordis` (kept external). */
const toSharedCordis = {
  name: 'shared-cordis',
  setup(build) {
    build.onResolve({ filter: /^cordis$/ }, () => ({ path: CORDIS.specifier, external: true }))
  },
}

/**
 * reggol (the logger behind `ctx.logger` and cordis' `Logger`) is not bundled: the bundle takes
 * the very module the user's cordis loads, found from cordis' own folder, so that `Logger`'s
 * settings (`Logger.targets`, `Logger.levels`) made through either reach both.
 */
const sharedReggol = {
  name: 'shared-reggol',
  setup(build) {
    build.onResolve({ filter: /^reggol$/ }, () => ({ path: 'reggol', namespace: 'shared-reggol' }))
    build.onLoad({ filter: /.*/, namespace: 'shared-reggol' }, () => ({
      contents: "import { createRequire } from 'node:module'\n" +
        "export default createRequire(createRequire(import.meta.url).resolve('cordis'))('reggol')\n",
      loader: 'js',
    }))
  },
}

/**
 * cordis and schemastery ship built with esbuild's `keepNames`: `__name(fn, "get")` around every
 * function they make, and the helper sets `fn.name` with `Object.defineProperty`. cordis makes
 * closures for every property read through a context's proxies (`withProps`' traps), so
 * building a harness ran the helper thousands of times: about 8 ms of a cold `createHarness`
 * (docs/performance.md, "Names as they are"). Here the helper leaves a function whose name
 * already is the one asked for, or that has none (an anonymous closure: it stays anonymous),
 * and sets it otherwise (a class esbuild renamed keeps its name).
 */
const KEPT_NAME = /var (__name\w*) = \(target, value\) => (__defProp\w*)\(target, "name", \{ value, configurable: true \}\);/g
const namesAsTheyAre = {
  name: 'names-as-they-are',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8')
      const contents = source.replace(KEPT_NAME, (_, helper, define) =>
        `var ${helper} = (target, value) => target.name === value || target.name === "" ? target : ${define}(target, "name", { value, configurable: true });`)
      return contents === source ? undefined : { contents, loader: 'js' }
    })
  },
}

/** Bundles one package; removes the chunks of its previous bundle first. */
async function bundle({ name, dir, entries, sharesCordis }) {
  const out = join(dir, 'dist', 'src')
  if (existsSync(out)) {
    for (const name of readdirSync(out)) if (/^bundle-.*\.js(\.map)?$/.test(name)) rmSync(join(out, name))
  }
  const carriesCordis = name === CORDIS.package && entries.includes(CORDIS.stem)
  if (carriesCordis) await bundleCordis(dir)
  const own = carriesCordis ? entries.filter((stem) => stem !== CORDIS.stem) : entries
  await build({
    absWorkingDir: dir,
    entryPoints: own.map((stem) => ({ in: `dist/src/${stem}.js`, out: `${stem}.bundle` })),
    outdir: 'dist/src',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'bundle-[hash]',
    keepNames: false, // its __name() on every closure made the call path 1.5–2 × slower (docs/performance.md)
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: sharesCordis ? [toSharedCordis] : [],
  })
}

/**
 * `dist/src/cordis.bundle.js` of `@rein/kernel`: cordis and everything it imports but reggol in
 * one ES module (schemastery and cosmokit's CommonJS build included, wrapped by esbuild).
 */
async function bundleCordis(dir) {
  await build({
    plugins: [sharedReggol, namesAsTheyAre],
    absWorkingDir: dir,
    entryPoints: [{ in: `dist/src/${CORDIS.stem}.js`, out: `${CORDIS.stem}.bundle` }],
    outdir: 'dist/src',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: false,
    sourcemap: 'linked',
    logLevel: 'warning',
  })
}

await Promise.all(bundled().map(bundle))
