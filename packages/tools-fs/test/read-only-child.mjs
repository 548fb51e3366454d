// Run by write-file.test.ts in a child process: makes a workspace holding a read-only file, calls
// write_file and edit_file on it, and prints { outcomes, content, names } as JSON. Root may write
// any file, so as root the child gives the workspace to user nobody, starts the tools (which
// imports all they need, ajv included), and only then becomes nobody: the clone may sit in a
// folder nobody cannot read (mktemp -d makes it 0700). Needs the built dist.
import { chmod, chown, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'

// The built package, named at run time so that the type-check does not take dist for a source.
const toolsFs = await import(new URL('../dist/src/index.js', import.meta.url).href)
const NOBODY = 65534
const root = process.getuid?.() === 0
const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'rein-fs-ro-')))
try {
  const file = path.join(dir, 'ro.txt')
  await writeFile(file, 'keep\n')
  await chmod(file, 0o444)
  if (root) for (const owned of [dir, file]) await chown(owned, NOBODY, NOBODY)
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(toolsFs, { root: dir })
  await ctx.start()
  if (root) {
    process.setgroups([NOBODY])
    process.setgid(NOBODY)
    process.setuid(NOBODY)
  }
  const calls = [['write_file', { path: 'ro.txt', content: 'x' }], ['edit_file', { path: 'ro.txt', old_string: 'keep', new_string: 'x' }]]
  const outcomes = []
  for (const [name, args] of calls) {
    const result = await ctx.tools.execute({ id: name, name, arguments: args })
    outcomes.push({ name, code: result.isError ? result.error.info?.code : 'ok', text: result.isError ? result.error.message : '' })
  }
  await ctx.stop()
  console.log(JSON.stringify({ outcomes, content: await readFile(path.join(dir, 'ro.txt'), 'utf8'), names: await readdir(dir) }))
} finally {
  await rm(dir, { recursive: true, force: true })
}
