import { mkdir, symlink } from 'node:fs/promises'
import path from 'node:path'
import { TOOL_DENIED } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
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

  it('reports a cwd that does not exist or is a file', async () => {
    const sh = await shell()
    expect(codeOf(await sh.call({ command: 'true', cwd: 'nope' }))).toBe('BAD_CWD')
    await sh.call({ command: 'touch f' })
    expect(codeOf(await sh.call({ command: 'true', cwd: 'f' }))).toBe('BAD_CWD')
  })
})
