/**
 * A local TypeScript module is evaluated once per content, however often it is loaded (a
 * long-lived worker loads its harness again and again); an edited file is evaluated again, and
 * a file that failed to import is tried again once fixed. Real files in a temp folder.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { importModule } from '../src/modules.js'

let dir: string | undefined
afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); dir = undefined })

/** A plugin module that counts, on `globalThis[key]`, how often it was evaluated. */
const counting = (key: string, version: number) => `
const counts = globalThis as unknown as Record<string, number>
counts['${key}'] = (counts['${key}'] ?? 0) + 1
export const name = 'counted'
export const version: number = ${version}
export function apply(): void {}
`

const evaluations = (key: string) => (globalThis as unknown as Record<string, number | undefined>)[key] ?? 0

describe('importing a local .ts module', () => {
  it('evaluates it once when loaded twice, and again once its content changes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rein-local-import-'))
    const file = join(dir, 'plugin.ts')
    const key = `rein-evaluations-${Math.random()}`
    await writeFile(file, counting(key, 1))
    const first = await importModule({ file, origin: 'local' })
    const second = await importModule({ file, origin: 'local' })
    expect(evaluations(key)).toBe(1)
    expect(second).toBe(first)
    await writeFile(file, counting(key, 2))
    const edited = await importModule({ file, origin: 'local' })
    expect(evaluations(key)).toBe(2)
    expect(edited.version).toBe(2)
  })

  it('tries a file that failed to import again once it is fixed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rein-local-import-'))
    const file = join(dir, 'plugin.ts')
    const key = `rein-evaluations-${Math.random()}`
    await writeFile(file, `${counting(key, 1)}\nthrow new Error('not yet')\n`)
    await expect(importModule({ file, origin: 'local' })).rejects.toThrow(/failed to import .*plugin\.ts: not yet/)
    await writeFile(file, counting(key, 2))
    expect((await importModule({ file, origin: 'local' })).version).toBe(2)
  })
})
