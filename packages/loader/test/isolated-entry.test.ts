import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as timeout from '@rein/plugin-timeout-policy'
import { ConfigErrors, loadHarness } from '../src/index.js'
import { project } from './helpers.js'

/** A tool module whose body spins forever unless told otherwise: only terminating its thread ends it. */
const SPIN_TOOL = `export default {
  name: 'spin',
  description: 'Counts to n, or forever.',
  parameters: { type: 'object', properties: { n: { type: 'integer' } } },
  execute: (args) => { let i = 0; while (args.n === undefined || i < args.n) i++; return i },
}
`

describe('a tools: entry with isolate: true', () => {
  it('runs the body in a worker: a busy loop ends at the deadline, and the next call works', async () => {
    const dir = await project({ 'spin.mjs': SPIN_TOOL }, { linkNodeModules: true })
    await writeFile(join(dir, 'rein.yaml'), ['tools:', '  - use: ./spin.mjs', '    isolate: true'].join('\n'))
    const harness = await loadHarness(join(dir, 'rein.yaml'), { provider: { generate: async () => ({ role: 'assistant', content: 'x' }) } })
    try {
      // The deadline under test is short; the grace is longer than the test may run, so only
      // terminating the worker can end the first call in time.
      const deadline = harness.ctx.plugin(timeout, { defaultMs: 200, graceMs: 60_000 })
      const stuck = await harness.ctx.tools.execute({ id: 'a', name: 'spin', arguments: {} })
      expect(stuck).toMatchObject({ isError: true, error: { info: { code: 'TOOL_TIMEOUT' } } })
      // A plain TOOL_TIMEOUT, not the plugin giving up on a body it could not stop.
      expect(stuck.isError && stuck.error.info?.name).toBeUndefined()
      // The next call starts a new worker, which a loaded machine may take longer than 200 ms to do.
      deadline.update({ defaultMs: 60_000, graceMs: 60_000 })
      const next = await harness.ctx.tools.execute({ id: 'b', name: 'spin', arguments: { n: 1000 } })
      expect(next).toMatchObject({ isError: false, value: 1000 })
    } finally {
      await harness.dispose()
    }
  })

  it('is refused on a plugin entry, and must be a boolean', async () => {
    const dir = await project({ 'tool.ts': 'export default {}', 'plugin.mjs': 'export const name = "p"; export function apply() {}' }, { linkNodeModules: true })
    await writeFile(join(dir, 'rein.yaml'), [
      'plugins:',
      "  - use: '@rein/plugin-retry'",
      '    isolate: true',
      'tools:',
      '  - use: ./tool.ts',
      '    isolate: true',
      '  - use: ./plugin.mjs',
      '    isolate: true',
      '  - use: ./plugin.mjs',
      '    isolate: "yes"',
    ].join('\n'))
    const error = await loadHarness(join(dir, 'rein.yaml')).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigErrors)
    const lines = (error as ConfigErrors).errors.map((e) => e.message)
    expect(lines.some((l) => l.includes('"isolate" applies to tool modules (entries under tools:)'))).toBe(true)
    expect(lines.some((l) => l.includes('"isolate" must be true or false (got "yes")'))).toBe(true)
  })

  it('names a TypeScript module and a module that is not one tool', async () => {
    const dir = await project({ 'tool.ts': 'export default {}', 'plugin.mjs': 'export const name = "p"; export function apply() {}' }, { linkNodeModules: true })
    await writeFile(join(dir, 'rein.yaml'), ['tools:', '  - use: ./tool.ts', '    isolate: true', '  - use: ./plugin.mjs', '    isolate: true'].join('\n'))
    const error = await loadHarness(join(dir, 'rein.yaml')).then(() => undefined, (e: unknown) => e)
    const lines = (error as ConfigErrors).errors.map((e) => e.message)
    expect(lines).toEqual([
      expect.stringMatching(/rein\.yaml:3 tools\[0\].*"isolate: true" runs the module in a worker thread, which can only import JavaScript/),
      expect.stringMatching(/rein\.yaml:5 tools\[1\].*"isolate: true" needs a module whose default export is one tool definition/),
    ])
  })
})
