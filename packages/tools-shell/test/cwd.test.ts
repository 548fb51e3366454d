// Where a command starts: `cwd` is confined to the root by @rein/workspace (tested there); these
// tests show the bash tool's use of it and its own codes (TOOL_DENIED, BAD_CWD).
import { mkdir, readdir, rename, symlink } from 'node:fs/promises'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { TOOL_DENIED } from '@rein/kernel'
import { Root } from '@rein/workspace'
import { describe, expect, it } from 'vitest'
import { bashTool } from '../src/bash.js'
import { Config } from '../src/config.js'
import { findShell } from '../src/environment.js'
import { codeOf, shell, textOf, valueOf } from './helpers.js'

describe('where a command starts', () => {
  it('runs in the root by default, and in a folder inside it when asked', async () => {
    const sh = await shell()
    await mkdir(path.join(sh.root, 'sub'))
    expect(valueOf(await sh.call({ command: 'pwd' })).stdout).toBe(`${sh.root}\n`)
    expect(valueOf(await sh.call({ command: 'pwd', cwd: 'sub' })).stdout).toBe(`${path.join(sh.root, 'sub')}\n`)
  })

  it('refuses a cwd outside the root: "..", an absolute path, a symbolic link', async () => {
    const sh = await shell()
    await symlink(sh.outside, path.join(sh.root, 'out'))
    for (const cwd of ['..', '../outside', sh.outside, '/', 'out']) {
      const result = await sh.call({ command: 'touch escaped', cwd })
      expect(codeOf(result), cwd).toBe(TOOL_DENIED)
      expect(textOf(result)).toContain(`cwd "${cwd}" is refused`)
      expect(textOf(result)).toContain(sh.root)
    }
    expect(valueOf(await sh.call({ command: `ls -A ${sh.outside}` })).stdout).toBe('')
  })

  it('judges a dangling link by where it points: outside is refused, inside does not exist yet', async () => {
    const sh = await shell()
    await symlink(`${sh.outside}/not-yet`, `${sh.root}/dangling-out`)
    await symlink('not-yet', `${sh.root}/dangling-in`)
    const out = await sh.call({ command: 'true', cwd: 'dangling-out' })
    expect(codeOf(out)).toBe(TOOL_DENIED)
    expect(textOf(out)).toContain('cwd "dangling-out" is refused: a symbolic link on it leads to')
    expect(codeOf(await sh.call({ command: 'true', cwd: 'dangling-in' }))).toBe('BAD_CWD')
  })

  it('refuses a cwd swapped for a link to the outside between the check and the open', async () => {
    const sh = await shell()
    await mkdir(path.join(sh.root, 'sub'))
    const root = Root.open(sh.root, 'test', { noun: 'cwd' })
    const check = root.resolve.bind(root)
    root.resolve = async (input) => {
      const resolved = await check(input)
      await rename(path.join(sh.root, 'sub'), path.join(sh.root, 'sub.away'))
      await symlink(sh.outside, path.join(sh.root, 'sub'))
      return resolved
    }
    const ctx = new Context()
    ctx.plugin(kernel)
    await ctx.start()
    const config = Config({ root: sh.root })
    ctx.tools.register(bashTool(root, config, findShell(config.shell, process.env.PATH, 'test'), { PATH: process.env.PATH ?? '' }))
    const result = await ctx.tools.execute({ id: 'swap', name: 'bash', arguments: { command: 'touch escaped', cwd: 'sub' } })
    await ctx.stop()
    expect(codeOf(result)).toBe(TOOL_DENIED)
    expect(textOf(result)).toContain('cwd "sub" is refused: it was changed while being opened')
    expect(await readdir(sh.outside)).toEqual([])
  })

  it('reports a cwd that does not exist or is a file', async () => {
    const sh = await shell()
    expect(codeOf(await sh.call({ command: 'true', cwd: 'nope' }))).toBe('BAD_CWD')
    await sh.call({ command: 'touch f' })
    expect(codeOf(await sh.call({ command: 'true', cwd: 'f' }))).toBe('BAD_CWD')
  })
})
