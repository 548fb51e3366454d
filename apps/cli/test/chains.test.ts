/** `rein chains`: each hook's onion order, in file order, with the owning plugin. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { FIXTURES, project, rein } from './helpers.js'

const STANDARD = [
  `- use: '@rein/plugin-audit'\n    config: { file: ./audit.jsonl }`,
  `- use: '@rein/plugin-cache'`,
  `- use: '@rein/plugin-retry'`,
  `- use: '@rein/plugin-timeout-policy'\n    config: { defaultMs: 1000 }`,
  `- use: '@rein/plugin-permission-guard'`,
  `- use: '@rein/plugin-spill'\n    config: { store: memory }`,
]

const yaml = (entries: string[]) => `plugins:\n${entries.map((e) => `  ${e}`).join('\n')}\n`

describe('rein chains', () => {
  it('prints every hook with its plugins in file order, outermost first', async () => {
    const outer = `- use: ${join(FIXTURES, 'outer.mjs')}`
    const inner = `- use: ${join(FIXTURES, 'inner.mjs')}`
    const dir = await project({ 'rein.yaml': yaml([outer, ...STANDARD, inner]) })
    const { code, stdout, stderr } = await rein(['chains'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(ExitCodes.OK)
    expect(stdout.trim().split('\n').slice(1)).toEqual([
      'tools/pre-execute   outer > permission-guard > inner > (default: allow)',
      'guards              permission-guard > (all must pass)',
      'tools/execute       outer > cache > retry > timeout-policy > inner > (tool body)',
      'tools/post-execute  spill > outer > inner > (default: accept)',
      'tools/result        outer > audit > inner > (observers, in order)',
      'tools/hand-off      audit > (all settled, then the caller)',
    ])
  })

  it('follows the file when the order changes', async () => {
    const reordered = [STANDARD[3], STANDARD[2], STANDARD[1]]
    const dir = await project({ 'harness.yaml': yaml([`- use: ${join(FIXTURES, 'inner.mjs')}`, ...reordered, `- use: ${join(FIXTURES, 'outer.mjs')}`]) })
    const { code, stdout } = await rein(['chains', '-c', 'harness.yaml'], dir)
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('tools/execute       inner > timeout-policy > retry > cache > outer > (tool body)')
    expect(stdout.split('\n')[0]).toMatch(/^plugins in file order: .*inner\.mjs, @rein\/plugin-timeout-policy, @rein\/plugin-retry, @rein\/plugin-cache, .*outer\.mjs$/)
  })

  it('does not load the provider: the model is never needed to inspect a harness', async () => {
    const dir = await project({ 'rein.yaml': `provider: { use: ./not-written-yet.mjs }\n${yaml([STANDARD[1]])}` })
    const result = await rein(['chains'], dir)
    expect(result.code, result.stderr).toBe(ExitCodes.OK)
    expect(result.stdout).toContain('tools/execute       cache > (tool body)')
  })
})
