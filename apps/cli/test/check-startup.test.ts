/**
 * `rein check` on local plugins that never finish starting: a TypeScript module whose top-level
 * await never settles, and a plugin whose apply never resolves. The real command, spawned: the
 * failure is that nothing keeps the process alive, so Node itself would end it (exit 13, no word).
 */
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { project, requireBuild, spawnRein } from './helpers.js'

const NEVER_LOADS = `
await new Promise<void>(() => {})
export const name = 'never-loads'
export function apply(): void {}
`

const NEVER_APPLIES = `
export const name = 'never-applies'
export const inject = ['tools']
export function apply() { return new Promise(() => {}) }
`

describe('rein check with a plugin that never finishes starting', () => {
  it('fails closed after startupTimeoutMs, naming each plugin, what it waited for and how to allow longer', async () => {
    requireBuild()
    const dir = await project({
      // An ES module project, as `rein init` makes: top-level await is ESM only.
      'package.json': '{ "type": "module" }\n',
      'rein.yaml': 'startupTimeoutMs: 3000\nplugins:\n  - use: ./never-loads.ts\n  - use: ./never-applies.mjs\n',
      'never-loads.ts': NEVER_LOADS,
      'never-applies.mjs': NEVER_APPLIES,
    })
    const rein = spawnRein(['check'], dir)
    expect(await rein.exited).toBe(ExitCodes.FAILURE)
    const raise = 'fix the plugin, or if it needs longer to start, raise startupTimeoutMs at the top level of rein.yaml (now 3000)'
    expect(rein.stderr().split('\n').filter((line) => line.startsWith('✗'))).toEqual([
      '✗ rein.yaml:3 plugins[0] (./never-loads.ts): its module did not finish loading within 3000 ms '
        + `(a top-level await that never settles?), so the harness does not start and no tool runs; ${raise}`,
      '✗ rein.yaml:4 plugins[1] (./never-applies.mjs): its apply() did not finish within 3000 ms '
        + `(an await in apply, or a service it waits for, that never settles?), so the harness does not start and no tool runs; ${raise}`,
    ])
  }, 60_000)
})
