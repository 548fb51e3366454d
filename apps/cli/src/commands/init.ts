/**
 * `rein init [dir]`: writes a starter that works with no edits — rein.yaml with the standard
 * stack in the recommended order and the workspace tools, a policy plugin in TypeScript with
 * its test, a provider that reads its key from the environment (and an offline model without
 * one), and package.json scripts. In a folder that already has a package.json (an existing
 * project) it writes the rein files next to what is there and prints what package.json needs
 * (or adds it, with --write-package-json). It never overwrites a file and never writes through
 * a symbolic link inside the folder: if one of its files exists, or a folder it writes into is
 * a link, it names them all, writes nothing and exits 1.
 */
import { lstatSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import type { Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { println, type Io } from '../io.js'

/** Files an existing project keeps when it has them (the starter's copy is written only when it has none). */
const PROJECT_FILES = new Set(['.gitignore', 'tsconfig.json'])
/** The starter's README describes a project of its own: not written into an existing one. */
const FRESH_ONLY = new Set(['README.md', 'package.json'])

export const init: Command = {
  name: 'init',
  summary: 'write a working starter (or add rein to an existing project): rein.yaml, a policy plugin with its test, a provider',
  usage: 'rein init [dir] [--write-package-json]',
  help: `
Writes a starter into dir (default: the current folder; created if missing):
  rein.yaml                       the standard plugins in the recommended order, your own
                                  policy, the workspace tools (fs and shell), few-shot examples
  policies/no-friday-deploys.ts   a policy plugin in TypeScript
  test/no-friday-deploys.test.ts  its test on a real kernel (withKernel from @rein/testing)
  provider.ts                     DeepSeek when DEEPSEEK_API_KEY is set, else an offline model
  package.json                    scripts: check, chains, test, typecheck, run
  README.md, few-shot.yaml, tsconfig.json, .gitignore
After npm install, rein check, rein chains and npm test pass with no edits.

In a folder that has a package.json (an existing project), the same files are written next
to yours, except README.md and package.json; your .gitignore and tsconfig.json are kept when
you have them. The scripts (rein:check, rein:chains, rein:test) and packages package.json
needs are printed; --write-package-json adds the missing ones to it, keeping its indentation,
key order and final newline. Nothing is ever overwritten, and nothing is written through a
symbolic link inside dir: if one of the files exists, or a folder it goes into is a link,
init names them and writes nothing.

Options:
  --write-package-json  add the missing scripts and dependencies to an existing package.json`,
  options: { 'write-package-json': { type: 'boolean' } },
  positionals: { min: 0, max: 1 },
  async run(args, io) {
    const [{ starterFiles }, { shellWord }, { cliVersions, existingProjectAdditions }, additions] = await Promise.all([
      import('../init/starter.js'), import('../invocation.js'), import('../init/manifest.js'), import('../init/package-additions.js'),
    ])
    const target = resolve(io.cwd, args.positionals[0] ?? '.')
    const shown = relative(io.cwd, target) || '.'
    const manifestPath = join(target, 'package.json')
    const existing = lstatSync(manifestPath, { throwIfNoEntry: false }) !== undefined
    const all = await starterFiles(basename(target))
    const kept = existing ? all.filter((file) => PROJECT_FILES.has(file.path) && taken(target, file.path)).map((f) => f.path) : []
    const files = existing ? all.filter((file) => !FRESH_ONLY.has(file.path) && !kept.includes(file.path)) : all

    const links = linkedFolders(target, files.map((file) => file.path))
    if (links.length > 0) {
      println(io.stderr, `rein init: ${links.map((link) => join(shown, link)).join(', ')} ${links.length === 1 ? 'is a symbolic link' : 'are symbolic links'}; ` +
        'rein init writes only into real folders inside the target, so nothing was written.')
      println(io.stderr, 'Replace the link with a folder, or run rein init <new-folder> to start somewhere empty.')
      return ExitCodes.FAILURE
    }
    // lstat, not exists: a dangling symlink is taken too (writing through it would fail half-way).
    const clashes = files.filter((file) => taken(target, file.path))
    if (clashes.length > 0) {
      println(io.stderr, `rein init: ${shown} already has ${clashes.map((f) => f.path).join(', ')}; nothing was written.`)
      println(io.stderr, 'Move them away, or run rein init <new-folder> to start somewhere empty.')
      return ExitCodes.FAILURE
    }
    let manifestText: string | undefined
    let missing: ReturnType<typeof additions.missingFrom> | undefined
    if (existing) {
      manifestText = await readFile(manifestPath, 'utf8')
      missing = additions.missingFrom(additions.readManifest(manifestText, manifestPath), existingProjectAdditions(cliVersions()))
    }

    for (const file of files) {
      const path = join(target, file.path)
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, file.content, { flag: 'wx' })
    }
    if (!existing) {
      println(io.stdout, `wrote a rein starter in ${shown}: ${files.map((f) => f.path).join(', ')}`)
      nextSteps(io, shown, shellWord, ['npm install', 'npx rein check', 'npx rein chains', 'npm test', 'npx rein run "list the files here"'])
      return ExitCodes.OK
    }
    println(io.stdout, `added rein to the project in ${shown}: ${files.map((f) => f.path).join(', ')}`)
    if (kept.length > 0) println(io.stdout, `kept yours: ${kept.join(', ')}`)
    const ignored = kept.includes('.gitignore') ? await readFile(join(target, '.gitignore'), 'utf8').catch(() => '') : ''
    if (kept.includes('.gitignore') && !/^\/?\.rein\/?$/m.test(ignored)) {
      println(io.stdout, 'add .rein/ to your .gitignore: rein keeps its audit log and sessions there')
    }
    if (additions.isEmpty(missing!)) {
      println(io.stdout, 'package.json already has the scripts and packages rein needs')
    } else if (args.values['write-package-json'] === true && lstatSync(manifestPath).isSymbolicLink()) {
      println(io.stdout, 'package.json is a symbolic link, so it was not written; add to it:')
      for (const line of additions.describeAdditions(missing!)) println(io.stdout, line)
    } else if (args.values['write-package-json'] === true) {
      await writeFile(manifestPath, additions.withAdditions(manifestText!, missing!))
      println(io.stdout, 'added to package.json:')
      for (const line of additions.describeAdditions(missing!)) println(io.stdout, line)
    } else {
      println(io.stdout, 'add to package.json (or run rein init --write-package-json to add them):')
      for (const line of additions.describeAdditions(missing!)) println(io.stdout, line)
    }
    nextSteps(io, shown, shellWord, ['npm install', 'npx rein check', 'npx rein chains', 'npm run rein:test', 'npx rein run "list the files here"'])
    return ExitCodes.OK
  },
}

/** Whether anything (a file, a folder, a link, even a dangling one) is at `path` under `root`. */
function taken(root: string, path: string): boolean {
  return lstatSync(join(root, path), { throwIfNoEntry: false }) !== undefined
}

/** The folders between `root` and each of `paths` that exist as symbolic links, each once. */
function linkedFolders(root: string, paths: readonly string[]): string[] {
  const links = new Set<string>()
  for (const path of paths) {
    const parts = path.split('/').slice(0, -1)
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join('/')
      if (lstatSync(join(root, folder), { throwIfNoEntry: false })?.isSymbolicLink()) links.add(folder)
    }
  }
  return [...links].sort()
}

function nextSteps(io: Io, shown: string, shellWord: (word: string) => string, steps: string[]): void {
  println(io.stdout, 'next:')
  if (shown !== '.') println(io.stdout, `  cd ${shellWord(shown)}`)
  for (const step of steps) println(io.stdout, `  ${step}`)
}
