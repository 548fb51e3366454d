/**
 * A harness whose list contradicts the order its plugins' packages declare loads, with one
 * warning per pair in `harness.warnings` — from a rein.yaml, and from code for the standard
 * plugins. The standard packages declare what their READMEs say: cache outside retry, retry
 * outside timeout-policy.
 */
import * as cache from '@rein/plugin-cache'
import * as retry from '@rein/plugin-retry'
import * as timeoutPolicy from '@rein/plugin-timeout-policy'
import { describe, expect, it } from 'vitest'
import { createHarness, loadHarness } from '../src/index.js'
import { harnessProject } from './helpers.js'

const CACHE_IN_RETRY = 'cache then sits inside retry, so it caches and shares single attempts rather than the retried result, ' +
  'and a hit no longer skips retry; list @rein/plugin-cache before @rein/plugin-retry'
const RETRY_IN_TIMEOUT = 'retry then sits inside timeout-policy, so one deadline covers all the attempts and a call that times out ' +
  'is never retried; list @rein/plugin-retry before @rein/plugin-timeout-policy'

/** A package in the project's node_modules whose package.json carries `rein`. */
const localPackage = (name: string, rein: unknown) => ({
  [`node_modules/${name}/package.json`]: JSON.stringify({ name, type: 'module', exports: './index.mjs', rein }),
  [`node_modules/${name}/index.mjs`]: `export const name = '${name}'\nexport const inject = ['tools']\nexport function apply() {}\n`,
})

describe('plugin order', () => {
  it('warns for each pair a rein.yaml lists against its packages, naming both and the fix, and still loads', async () => {
    const { file } = await harnessProject(() => [
      'plugins:',
      '  - use: "@rein/plugin-permission-guard"',
      '  - use: "@rein/plugin-timeout-policy"',
      '  - use: "@rein/plugin-retry"',
      '  - use: "@rein/plugin-cache"',
      '  - use: "@rein/plugin-audit"',
      '    config: { file: ./audit.jsonl }',
    ])
    const harness = await loadHarness(file)
    expect(harness.warnings).toEqual([
      `${file}:3 plugins[1] (@rein/plugin-timeout-policy) is listed before plugins[2] (@rein/plugin-retry): ${RETRY_IN_TIMEOUT}`,
      `${file}:4 plugins[2] (@rein/plugin-retry) is listed before plugins[3] (@rein/plugin-cache): ${CACHE_IN_RETRY}`,
    ])
    expect(harness.ctx.tools.chain('tools/execute')).toEqual(['timeout-policy', 'retry', 'cache'])
    await harness.dispose()
  })

  it('warns when budget is listed inside cache or retry, and says nothing when it is outside both', async () => {
    const { file } = await harnessProject(() => ['plugins:', '  - "@rein/plugin-cache"', '  - "@rein/plugin-budget"', '  - "@rein/plugin-retry"'])
    const harness = await loadHarness(file)
    expect(harness.warnings).toEqual([
      `${file}:2 plugins[0] (@rein/plugin-cache) is listed before plugins[1] (@rein/plugin-budget): budget then sits inside cache, so a call ` +
        'answered from the cache is never counted and a loop the cache serves is never broken; list @rein/plugin-budget before @rein/plugin-cache',
    ])
    await harness.dispose()
    const fine = await harnessProject(() => ['plugins:', '  - "@rein/plugin-budget"', '  - "@rein/plugin-cache"', '  - "@rein/plugin-retry"'])
    const good = await loadHarness(fine.file)
    expect(good.warnings).toEqual([])
    expect(good.ctx.tools.chain('tools/execute')).toEqual(['budget', 'cache', 'retry'])
    await good.dispose()
  })

  it('says nothing for the recommended order, nor for spill listed first (it makes itself outermost)', async () => {
    const { file } = await harnessProject(() => [
      'plugins:',
      '  - { use: "@rein/plugin-spill", config: { store: memory } }',
      '  - { use: "@rein/plugin-audit", config: { file: ./audit.jsonl } }',
      '  - "@rein/plugin-cache"',
      '  - "@rein/plugin-retry"',
      '  - "@rein/plugin-timeout-policy"',
      '  - "@rein/plugin-permission-guard"',
    ])
    const harness = await loadHarness(file)
    expect(harness.warnings).toEqual([])
    expect(harness.ctx.tools.chain('tools/post-execute')).toEqual(['spill'])
    await harness.dispose()
  })

  it('reads any package\'s declaration, and warns about one of the wrong shape', async () => {
    const { file } = await harnessProject(() => [
      'plugins:',
      '  - "@rein/plugin-retry"',
      '  - outer-policy',
      '  - odd-policy',
    ], {
      ...localPackage('outer-policy', { order: { outside: ['@rein/plugin-retry'] } }),
      ...localPackage('odd-policy', { order: { outside: '@rein/plugin-retry' } }),
    })
    const harness = await loadHarness(file)
    const odd = harness.entries[2]!.file!.replace(/index\.mjs$/, 'package.json')
    expect(harness.warnings).toEqual([
      `${file}:4 plugins[2] (odd-policy): ${odd} declares its order wrongly: "rein.order.outside" must be a list of package names, ` +
        'or { "<package>": "<what goes wrong in the other order>" }; its order is not checked',
      `${file}:2 plugins[0] (@rein/plugin-retry) is listed before plugins[1] (outer-policy): outer-policy declares that it belongs ` +
        'outside @rein/plugin-retry; list outer-policy before @rein/plugin-retry',
    ])
    await harness.dispose()
  })

  it('warns the same for the standard plugins given in code', async () => {
    const harness = await createHarness({ plugins: [timeoutPolicy, [retry, { maxAttempts: 2 }], cache] })
    expect(harness.warnings).toEqual([
      `plugins[0] (timeout-policy) is listed before plugins[1] (retry): ${RETRY_IN_TIMEOUT}`,
      `plugins[1] (retry) is listed before plugins[2] (cache): ${CACHE_IN_RETRY}`,
    ])
    await harness.dispose()
    const right = await createHarness({ plugins: [cache, retry, timeoutPolicy] })
    expect(right.warnings).toEqual([])
    await right.dispose()
  })
})
