// The tools when a folder on the path is swapped for a link right after the path was checked:
// every tool refuses, and nothing outside is read, listed, created or changed.
import { execFileSync } from 'node:child_process'
import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { TOOL_DENIED } from '@rein/kernel'
import { Root } from '@rein/workspace'
import { describe, expect, it, onTestFinished } from 'vitest'
import * as toolsFs from '../src/index.js'
import { inlineMatcher } from '../src/matcher.js'
import { editFileTool } from '../src/tools/edit-file.js'
import { globTool } from '../src/tools/glob.js'
import { grepTool } from '../src/tools/grep.js'
import { listDirTool } from '../src/tools/list-dir.js'
import { readFileTool } from '../src/tools/read-file.js'
import { writeFileTool } from '../src/tools/write-file.js'
import { codeOf, textOf, valueOf, workspace, type Workspace } from './helpers.js'

const SECRET = 'top secret token\n'

/**
 * The six tools on a root whose check is followed, every time, by `sub` being swapped for a
 * link to the outside folder: the worst moment a racing process could pick.
 */
async function swappedAfterCheck() {
  const ws = await workspace()
  await ws.put({ 'sub/secret.txt': 'inside token\n' })
  await writeFile(path.join(ws.outside, 'secret.txt'), SECRET)
  const root = Root.open(ws.root, 'test')
  const check = root.resolve.bind(root)
  root.resolve = async (input) => {
    const resolved = await check(input)
    await rename(path.join(ws.root, 'sub'), path.join(ws.root, 'sub.away'))
    await symlink(ws.outside, path.join(ws.root, 'sub'))
    return resolved
  }
  const config = toolsFs.Config({ root: ws.root })
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  onTestFinished(() => ctx.stop())
  for (const tool of [readFileTool(root, config), writeFileTool(root), editFileTool(root, config), listDirTool(root, config), globTool(root, config), grepTool(root, config, inlineMatcher())]) {
    ctx.tools.register(tool)
  }
  let ids = 0
  return {
    ws,
    call: (name: string, args: Record<string, unknown>) => ctx.tools.execute({ id: `swap_${++ids}`, name, arguments: args }),
  }
}

async function outsideUntouched(ws: Workspace) {
  expect((await readdir(ws.outside)).sort()).toEqual(['secret.txt'])
  expect(await readFile(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe(SECRET)
}

describe('a path swapped for a link between the check and the open', () => {
  it('is refused by read_file and edit_file, and nothing outside is read or changed', async () => {
    const { ws, call } = await swappedAfterCheck()
    const read = await call('read_file', { path: 'sub/secret.txt' })
    expect(codeOf(read)).toBe(TOOL_DENIED)
    expect(textOf(read)).toContain('changed while being opened')
    expect(textOf(read)).not.toContain('top secret')
    const edit = await call('edit_file', { path: 'sub/secret.txt', old_string: 'token', new_string: 'TOKEN' })
    expect(codeOf(edit)).toBe(TOOL_DENIED)
    await outsideUntouched(ws)
  })

  it('is refused by write_file, which neither truncates, creates a file nor makes a folder outside', async () => {
    const { ws, call } = await swappedAfterCheck()
    for (const file of ['sub/secret.txt', 'sub/new.txt', 'sub/deep/er/new.txt']) {
      const result = await call('write_file', { path: file, content: 'planted' })
      expect(codeOf(result), file).toBe(TOOL_DENIED)
      // Put the folder back for the next call.
      await rename(path.join(ws.root, 'sub'), path.join(ws.root, `link-${file.length}`))
      await rename(path.join(ws.root, 'sub.away'), path.join(ws.root, 'sub'))
    }
    await outsideUntouched(ws)
  })

  it('is refused by list_dir, glob and grep', async () => {
    const { ws, call } = await swappedAfterCheck()
    expect(codeOf(await call('list_dir', { path: 'sub' }))).toBe(TOOL_DENIED)
    await rename(path.join(ws.root, 'sub'), path.join(ws.root, 'link-1'))
    await rename(path.join(ws.root, 'sub.away'), path.join(ws.root, 'sub'))
    expect(codeOf(await call('glob', { pattern: '*', path: 'sub' }))).toBe(TOOL_DENIED)
    await rename(path.join(ws.root, 'sub'), path.join(ws.root, 'link-2'))
    await rename(path.join(ws.root, 'sub.away'), path.join(ws.root, 'sub'))
    for (const target of ['sub', 'sub/secret.txt']) {
      const grep = await call('grep', { pattern: 'token', path: target })
      expect(codeOf(grep), target).toBe(TOOL_DENIED)
      expect(textOf(grep)).not.toContain('top secret')
      await rename(path.join(ws.root, 'sub'), path.join(ws.root, `link-${target.length}`))
      await rename(path.join(ws.root, 'sub.away'), path.join(ws.root, 'sub'))
    }
    await outsideUntouched(ws)
  })
})

describe('opening what is not a regular file', () => {
  it('answers WRONG_TYPE for a FIFO at once instead of waiting for a writer', async () => {
    const ws = await workspace()
    await mkdir(path.join(ws.root, 'd'))
    execFileSync('mkfifo', [path.join(ws.root, 'd/pipe')])
    expect(codeOf(await ws.call('read_file', { path: 'd/pipe' }))).toBe('WRONG_TYPE')
    expect(codeOf(await ws.call('edit_file', { path: 'd/pipe', old_string: 'a', new_string: 'b' }))).toBe('WRONG_TYPE')
    expect(valueOf(await ws.call('grep', { pattern: 'x', path: 'd' }))).toMatchObject({ filesSearched: 0 })
  })
})
