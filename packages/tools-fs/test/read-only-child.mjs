// Run by write-file.test.ts as an unprivileged user (root may write any file, so the refusal
// cannot be seen as root): makes a workspace holding a read-only file, calls write_file and
// edit_file on it, and prints { outcomes, content, names } as JSON. Needs the built dist.
import { chmod, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'

// The built package, named at run time so that the type-check does not take dist for a source.
const toolsFs = await import(new URL('../dist/src/index.js', import.meta.url).href)
const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'rein-fs-ro-')))
try {
  await writeFile(path.join(dir, 'ro.txt'), 'keep\n')
  await chmod(path.join(dir, 'ro.txt'), 0o444)
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(toolsFs, { root: dir })
  await ctx.start()
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
