/**
 * `@rein/types` holds types only: importing it yields no value, and it depends on nothing, so
 * a plugin or provider that imports it pulls in no code.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('@rein/types', () => {
  it('exports no value at run time', async () => {
    const module = await import('../src/index.js')
    expect(Object.keys(module)).toEqual([])
  })

  it('depends on no package', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, object | undefined>
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) expect(Object.keys(manifest[field] ?? {}), field).toEqual([])
  })
})
