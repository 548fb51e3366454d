/**
 * A harness loads its entries while the provider and `@rein/agent` load, and applies them only
 * once those have arrived (`build.ts`, `applyEntries`): applying is a run of promise reactions
 * that kept the import's file reads waiting, so a cold harness waited for `@rein/agent` after
 * its last entry. The provider module here takes a while to evaluate; the plugin sees it loaded.
 */
import { describe, expect, it } from 'vitest'
import { loadHarness } from '../src/index.js'
import { project } from './helpers.js'

const FLAG = '__reinTestProviderLoaded'
const SEEN = '__reinTestProviderSeenByApply'

describe('applying the entries', () => {
  it('starts once the provider module has loaded', async () => {
    const dir = await project({
      'late-provider.mjs': `await new Promise((resolve) => setTimeout(resolve, 50))\nglobalThis.${FLAG} = true\n` +
        'export function createProvider() { return { async generate() { return { role: "assistant", content: "ok" } } } }\n',
      'sees-provider.mjs': `export const name = 'sees'\nexport function apply() { globalThis.${SEEN} = globalThis.${FLAG} === true }\n`,
      'rein.yaml': 'provider: { use: ./late-provider.mjs }\nplugins: [./sees-provider.mjs]\n',
    })
    const globals = globalThis as Record<string, unknown>
    try {
      const harness = await loadHarness(`${dir}/rein.yaml`)
      await harness.dispose()
      expect(globals[SEEN]).toBe(true)
    } finally {
      delete globals[FLAG]
      delete globals[SEEN]
    }
  })
})
