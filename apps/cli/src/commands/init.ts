/**
 * `rein init [dir]`: writes a starter that works with no edits — rein.yaml with the standard
 * stack in the recommended order and the workspace tools, a policy plugin in TypeScript with
 * its test, a provider that reads its key from the environment (and an offline model without
 * one), and package.json scripts. It never overwrites: if any of its files exists, it names
 * them all, writes nothing and exits 1.
 */
import { lstatSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import type { Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { println } from '../io.js'

export const init: Command = {
  name: 'init',
  summary: 'write a working starter: rein.yaml, a policy plugin with its test, a provider, package.json',
  usage: 'rein init [dir]',
  help: `
Writes a starter into dir (default: the current folder; created if missing):
  rein.yaml                       the standard plugins in the recommended order, your own
                                  policy, the workspace tools (fs and shell), few-shot examples
  policies/no-friday-deploys.ts   a policy plugin in TypeScript
  test/no-friday-deploys.test.ts  its test on a real kernel (withKernel from @rein/testing)
  provider.ts                     DeepSeek when DEEPSEEK_API_KEY is set, else an offline model
  package.json                    scripts: check, chains, test, typecheck, run
  README.md, few-shot.yaml, tsconfig.json, .gitignore
Nothing is overwritten: if one of these files exists, init names it and writes nothing.
After npm install, rein check, rein chains and npm test pass with no edits.`,
  options: {},
  positionals: { min: 0, max: 1 },
  async run(args, io) {
    const [{ starterFiles }, { shellWord }] = await Promise.all([import('../init/starter.js'), import('../invocation.js')])
    const target = resolve(io.cwd, args.positionals[0] ?? '.')
    const files = await starterFiles(basename(target))
    // lstat, not exists: a dangling symlink is taken too (writing through it would fail half-way).
    const taken = files.filter((file) => lstatSync(join(target, file.path), { throwIfNoEntry: false }) !== undefined)
    const shown = relative(io.cwd, target) || '.'
    if (taken.length > 0) {
      println(io.stderr, `rein init: ${shown} already has ${taken.map((f) => f.path).join(', ')}; nothing was written.`)
      println(io.stderr, 'Move them away, or run rein init <new-folder> to start somewhere empty.')
      return ExitCodes.FAILURE
    }
    for (const file of files) {
      const path = join(target, file.path)
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, file.content, { flag: 'wx' })
    }
    println(io.stdout, `wrote a rein starter in ${shown}: ${files.map((f) => f.path).join(', ')}`)
    println(io.stdout, 'next:')
    if (shown !== '.') println(io.stdout, `  cd ${shellWord(shown)}`)
    for (const step of ['npm install', 'npx rein check', 'npx rein chains', 'npm test', 'npx rein run "list the files here"']) {
      println(io.stdout, `  ${step}`)
    }
    return ExitCodes.OK
  },
}
