// How the tools use @rein/workspace's confinement: every tool refuses every way out. The
// resolver and the descriptor checks themselves are tested in packages/workspace.
import { readFile, stat, symlink } from 'node:fs/promises'
import path from 'node:path'
import { TOOL_DENIED } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

describe('confinement to the root', () => {
  it('refuses ".." escapes with TOOL_DENIED, naming the path and the root', async () => {
    const ws = await workspace()
    const result = await ws.call('read_file', { path: '../outside/secret.txt' })
    expect(codeOf(result)).toBe(TOOL_DENIED)
    expect(textOf(result)).toContain('"../outside/secret.txt"')
    expect(textOf(result)).toContain(ws.root)
  })

  it('refuses absolute paths outside the root', async () => {
    const ws = await workspace()
    const result = await ws.call('read_file', { path: path.join(ws.outside, 'secret.txt') })
    expect(codeOf(result)).toBe(TOOL_DENIED)
    expect(textOf(result)).toContain(ws.root)
  })

  it('refuses a symbolic link that points outside, for files and folders', async () => {
    const ws = await workspace()
    await symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'))
    await symlink(ws.outside, path.join(ws.root, 'dirlink'))
    for (const [name, args] of [
      ['read_file', { path: 'link.txt' }],
      ['read_file', { path: 'dirlink/secret.txt' }],
      ['edit_file', { path: 'link.txt', old_string: 'top', new_string: 'no' }],
      ['write_file', { path: 'link.txt', content: 'overwritten' }],
      ['write_file', { path: 'dirlink/new.txt', content: 'x' }],
      ['list_dir', { path: 'dirlink' }],
      ['glob', { pattern: '*', path: 'dirlink' }],
      ['grep', { pattern: 'secret', path: 'dirlink' }],
    ] as const) {
      const result = await ws.call(name, args)
      expect(codeOf(result), `${name} ${JSON.stringify(args)}`).toBe(TOOL_DENIED)
      expect(textOf(result)).toContain('symbolic link')
    }
    expect(await readFile(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe('top secret\n')
    await expect(stat(path.join(ws.outside, 'new.txt'))).rejects.toThrow()
  })

  it('refuses writing through a dangling link whose target is outside', async () => {
    const ws = await workspace()
    await symlink(path.join(ws.outside, 'planted.txt'), path.join(ws.root, 'dangling.txt'))
    const result = await ws.call('write_file', { path: 'dangling.txt', content: 'x' })
    expect(codeOf(result)).toBe(TOOL_DENIED)
    await expect(stat(path.join(ws.outside, 'planted.txt'))).rejects.toThrow()
  })

  it('writes through a dangling link whose target is inside by creating that target', async () => {
    const ws = await workspace()
    await symlink('later/made.txt', path.join(ws.root, 'soon.txt'))
    const result = await ws.call('write_file', { path: 'soon.txt', content: 'x' })
    expect(valueOf(result)).toEqual({ path: 'soon.txt', bytes: 1, created: true })
    expect(await readFile(path.join(ws.root, 'later/made.txt'), 'utf8')).toBe('x')
  })

  it('refuses every tool an escape by ".." and by absolute path', async () => {
    const ws = await workspace()
    const abs = ws.outside
    for (const [name, args] of [
      ['write_file', { path: '../outside/x.txt', content: 'x' }],
      ['write_file', { path: path.join(abs, 'x.txt'), content: 'x' }],
      ['edit_file', { path: '../outside/secret.txt', old_string: 'top', new_string: 'no' }],
      ['list_dir', { path: '..' }],
      ['list_dir', { path: abs }],
      ['glob', { pattern: '../outside/*' }],
      ['glob', { pattern: `${abs}/*` }],
      ['glob', { pattern: '{..,x}/**' }],
      ['glob', { pattern: '*', path: '..' }],
      ['grep', { pattern: 'secret', path: '../outside' }],
      ['grep', { pattern: 'secret', glob: '../outside/*' }],
    ] as const) {
      expect(codeOf(await ws.call(name, args)), `${name} ${JSON.stringify(args)}`).toBe(TOOL_DENIED)
    }
    await expect(stat(path.join(abs, 'x.txt'))).rejects.toThrow()
  })

  it('refuses a glob whose segment starts with "..", though it is more than "..", and allows ".." inside a name', async () => {
    const ws = await workspace()
    await ws.put({ 'v1..2/a..b.txt': 'x\n' })
    for (const pattern of ['..?(x)/**/*.nothing', '..*/secret.txt', 'sub/..x/*', '{x,..y}/*', '@(x|..)/*', '!../*']) {
      expect(codeOf(await ws.call('glob', { pattern })), pattern).toBe(TOOL_DENIED)
      expect(codeOf(await ws.call('grep', { pattern: 'x', glob: pattern })), pattern).toBe(TOOL_DENIED)
    }
    expect(valueOf<{ files: string[] }>(await ws.call('glob', { pattern: 'v1..2/*..b.txt' })).files).toEqual(['v1..2/a..b.txt'])
  })

  it('allows paths that stay inside: ".." back into the root, absolute paths inside, links inside', async () => {
    const ws = await workspace()
    await ws.put({ 'sub/a.txt': 'a\n' })
    await symlink(path.join(ws.root, 'sub'), path.join(ws.root, 'inner'))
    expect(valueOf<{ content: string }>(await ws.call('read_file', { path: 'sub/../sub/a.txt' })).content).toBe('a\n')
    expect(valueOf<{ path: string }>(await ws.call('read_file', { path: path.join(ws.root, 'sub/a.txt') })).path).toBe('sub/a.txt')
    expect(valueOf<{ content: string }>(await ws.call('read_file', { path: 'inner/a.txt' })).content).toBe('a\n')
  })
})
