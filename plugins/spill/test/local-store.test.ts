import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { localStore } from '../src/local-store.js'
import { testSpillStore } from '@rein/testing'

const root = await mkdtemp(join(tmpdir(), 'rein-spill-test-'))
let n = 0
const meta = { tool: 't', callId: 'c' }
/** This process's default spill directories under the OS temp dir. */
const spillDirs = async () => (await readdir(tmpdir())).filter((name) => name.startsWith(`rein-spill-${process.pid}-`))

testSpillStore('local (default temp dir)', () => localStore(), { describe, it })
testSpillStore('local (configured dir)', () => localStore({ dir: join(root, `contract-${n++}`) }), { describe, it })

describe('local store', () => {
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('makes a private directory under the OS temp dir on first save, and removes it on close', async () => {
    const store = localStore()
    onTestFinished(() => store.close())
    expect(store.directory).toBeUndefined()
    const saved = await store.save('hello', meta)
    const dir = store.directory!
    expect(dir.startsWith(tmpdir())).toBe(true)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    const files = await readdir(dir)
    expect(files).toEqual([`${saved.locator}.txt`])
    expect((await stat(join(dir, files[0]))).mode & 0o777).toBe(0o600)
    await store.close()
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('removes its directory before close returns, so an exit right after disposal leaves nothing', async () => {
    const store = localStore()
    await store.save('hello', meta)
    const dir = store.directory!
    const closing = store.close()
    expect(existsSync(dir)).toBe(false)
    await closing
  })

  it('removes a directory a save was still making when close was called', async () => {
    const before = new Set(await spillDirs())
    const store = localStore()
    const saving = store.save('hello', meta)
    await store.close()
    await Promise.allSettled([saving])
    expect((await spillDirs()).filter((name) => !before.has(name))).toEqual([])
    expect(store.directory).toBeUndefined()
  })

  it('creates a configured directory with mode 0700 and keeps it on close', async () => {
    const dir = join(root, 'made', 'here')
    const store = localStore({ dir })
    const saved = await store.save('x', meta)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    await store.close()
    expect(await localStore({ dir }).read(saved.locator)).toBe('x')
  })

  it.each(['000', '022', '277'])('makes folders 0700 and files 0600 whatever the umask (umask %s)', async (mask) => {
    const before = process.umask(parseInt(mask, 8))
    try {
      const temporary = localStore()
      onTestFinished(() => temporary.close())
      const a = await temporary.save('in the temp dir', meta)
      const made = join(root, `umask-${mask}`, 'nested', 'spill')
      const configured = localStore({ dir: made })
      const b = await configured.save('in a configured dir', meta)
      for (const dir of [temporary.directory!, made, dirname(made), dirname(dirname(made))]) {
        expect((await stat(dir)).mode & 0o777, dir).toBe(0o700)
      }
      expect((await stat(join(temporary.directory!, `${a.locator}.txt`))).mode & 0o777).toBe(0o600)
      expect((await stat(join(made, `${b.locator}.txt`))).mode & 0o777).toBe(0o600)
      expect(await configured.read(b.locator)).toBe('in a configured dir')
      await temporary.close()
    } finally {
      process.umask(before)
    }
  })

  it('leaves an existing private directory as it is', async () => {
    const dir = join(root, 'already-private')
    await mkdir(dir)
    await chmod(dir, 0o700)
    const saved = await localStore({ dir }).save('x', meta)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    expect((await stat(join(dir, `${saved.locator}.txt`))).mode & 0o777).toBe(0o600)
  })

  it('refuses a directory other users can open, a file, and a symlink', async () => {
    const open = join(root, 'open')
    await mkdir(open)
    await chmod(open, 0o755)
    await expect(localStore({ dir: open }).save('x', meta)).rejects.toThrow(/open to other users \(mode 755\)/)
    const file = join(root, 'a-file')
    await writeFile(file, '')
    await expect(localStore({ dir: file }).save('x', meta)).rejects.toThrow()
    const target = join(root, 'target')
    await mkdir(target, { mode: 0o700 })
    const link = join(root, 'link')
    await symlink(target, link)
    await expect(localStore({ dir: link }).save('x', meta)).rejects.toThrow(/not a plain directory/)
  })

  it('never reads outside its directory, whatever the locator says', async () => {
    const dir = join(root, 'inside')
    const store = localStore({ dir })
    const saved = await store.save('inside', meta)
    await writeFile(join(root, 'outside.txt'), 'outside secret')
    for (const locator of ['../outside', '..%2Foutside', join(root, 'outside'), `${saved.locator}/../../outside`]) {
      await expect(store.read(locator)).rejects.toMatchObject({ code: 'SPILL_NOT_FOUND' })
    }
  })

  it('retries the directory after a failure instead of remembering it', async () => {
    const dir = join(root, 'later')
    await writeFile(dir, 'in the way')
    const store = localStore({ dir })
    await expect(store.save('x', meta)).rejects.toThrow()
    await rm(dir)
    const saved = await store.save('x', meta)
    expect(await store.read(saved.locator)).toBe('x')
  })
})
