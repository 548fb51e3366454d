import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NOT_FOUND, Root, TOOL_DENIED, WRONG_TYPE } from '../src/index.js'
import { codeOfRejection, tree } from './helpers.js'

describe('Root.open', () => {
  it('says what to fix for a missing, absent or non-folder root, naming the owner', async () => {
    const t = await tree()
    expect(() => Root.open('', 'owner')).toThrow(/^owner: config\.root is required: the folder the tools may use/)
    expect(() => Root.open(undefined, 'owner', { purpose: 'the folder commands run in' })).toThrow(/required: the folder commands run in/)
    expect(() => Root.open(path.join(t.root, 'missing'), 'owner')).toThrow(/^owner: config\.root ".*missing" .* does not exist/)
    await writeFile(path.join(t.root, 'file'), '')
    expect(() => Root.open(path.join(t.root, 'file'), 'owner')).toThrow(/is not a directory/)
  })
})

describe('Root.resolve', () => {
  it('refuses ".." that climbs out and absolute paths elsewhere, naming the path and the root', async () => {
    const t = await tree()
    const root = t.open()
    for (const input of ['..', '../outside/secret.txt', 'a/../../outside', t.outside, '/']) {
      const error = await root.resolve(input).catch((e: Error & { code: string }) => e)
      expect(error, input).toMatchObject({ code: TOOL_DENIED })
      expect((error as Error).message).toContain(`path "${input}" is refused`)
      expect((error as Error).message).toContain(t.root)
    }
  })

  it('allows ".." that comes back inside, absolute paths inside, and links that stay inside', async () => {
    const t = await tree()
    await t.put({ 'sub/a.txt': 'a' })
    await symlink(path.join(t.root, 'sub'), path.join(t.root, 'inner'))
    const root = t.open()
    const real = path.join(t.root, 'sub/a.txt')
    expect(await root.resolve('sub/../sub/a.txt')).toEqual({ real, shown: 'sub/a.txt' })
    expect(await root.resolve(real)).toEqual({ real, shown: 'sub/a.txt' })
    expect(await root.resolve('inner/a.txt')).toEqual({ real, shown: 'inner/a.txt' })
    expect(await root.resolve('.')).toEqual({ real: t.root, shown: '.' })
    expect(await root.resolve('not/yet/there.txt')).toEqual({ real: path.join(t.root, 'not/yet/there.txt'), shown: 'not/yet/there.txt' })
  })

  it('refuses a symbolic link that leads outside, for a file and for a folder on the way', async () => {
    const t = await tree()
    await symlink(path.join(t.outside, 'secret.txt'), path.join(t.root, 'link.txt'))
    await symlink(t.outside, path.join(t.root, 'dirlink'))
    const root = t.open()
    for (const input of ['link.txt', 'dirlink', 'dirlink/secret.txt', 'dirlink/new/deeper.txt']) {
      await expect(root.resolve(input), input).rejects.toMatchObject({ code: TOOL_DENIED })
      await expect(root.resolve(input)).rejects.toThrow(/a symbolic link on it leads to .*, outside the root/)
    }
  })

  it('names paths with its noun and refuses a NUL byte', async () => {
    const t = await tree()
    const root = t.open({ noun: 'cwd' })
    await expect(root.resolve('..')).rejects.toThrow(`cwd ".." is refused: its ".." segments lead out of the root ${t.root}`)
    await expect(root.resolve('a\0b')).rejects.toMatchObject({ code: TOOL_DENIED, message: 'cwd "a\\0b" contains a NUL byte' })
  })

  it('reports a loop of links as NOT_FOUND and a file used as a folder as WRONG_TYPE', async () => {
    const t = await tree()
    await symlink('b', path.join(t.root, 'a'))
    await symlink('a', path.join(t.root, 'b'))
    await t.put({ 'file.txt': '' })
    const root = t.open()
    expect(await codeOfRejection(root.resolve('a'))).toBe(NOT_FOUND)
    expect(await codeOfRejection(root.resolve('file.txt/x'))).toBe(WRONG_TYPE)
  })

  it('works when the configured root is itself a symbolic link', async () => {
    const t = await tree()
    await t.put({ 'a.txt': 'a\n' })
    const alias = path.join(path.dirname(t.root), 'alias')
    await symlink(t.root, alias)
    const root = Root.open(alias, 'test')
    expect(await root.resolve(path.join(alias, 'a.txt'))).toEqual({ real: path.join(t.root, 'a.txt'), shown: 'a.txt' })
    expect(await root.resolve(path.join(t.root, 'a.txt'))).toEqual({ real: path.join(t.root, 'a.txt'), shown: 'a.txt' })
  })

  it('never resolves any path built of "..", names and links to a place outside the root', async () => {
    const t = await tree()
    await mkdir(path.join(t.root, 'a/b'), { recursive: true })
    await symlink(t.outside, path.join(t.root, 'a/out'))
    await symlink('../..', path.join(t.root, 'a/b/up'))
    await symlink(path.join(t.outside, 'planted'), path.join(t.root, 'a/dangling'))
    const root = t.open()
    const segment = fc.constantFrom('..', '.', 'a', 'b', 'out', 'up', 'dangling', 'new', 'secret.txt')
    await fc.assert(fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean(), async (segments, absolute) => {
      const input = absolute ? path.join(t.root, ...segments) : segments.join('/')
      try {
        const { real } = await root.resolve(input)
        expect(real === t.root || real.startsWith(t.root + path.sep)).toBe(true)
      } catch (error) {
        expect([TOOL_DENIED, NOT_FOUND, WRONG_TYPE]).toContain((error as { code?: string }).code)
      }
    }), { numRuns: 300 })
  })
})

describe('the dangling-link rule: a link is judged by where it points, whether or not that exists', () => {
  it('refuses a dangling link whose target is outside, also behind another link', async () => {
    const t = await tree()
    await symlink(path.join(t.outside, 'planted.txt'), path.join(t.root, 'dangling.txt'))
    await symlink('dangling.txt', path.join(t.root, 'hop.txt'))
    await symlink(path.join(t.outside, 'new-folder'), path.join(t.root, 'dangling-dir'))
    const root = t.open()
    for (const input of ['dangling.txt', 'hop.txt', 'dangling-dir', 'dangling-dir/file.txt']) {
      await expect(root.resolve(input), input).rejects.toMatchObject({ code: TOOL_DENIED })
    }
  })

  it('resolves a dangling link whose target is inside to that target', async () => {
    const t = await tree()
    await symlink('later/file.txt', path.join(t.root, 'soon.txt'))
    expect(await t.open().resolve('soon.txt')).toEqual({ real: path.join(t.root, 'later/file.txt'), shown: 'soon.txt' })
  })
})
