/**
 * The start-up deadline, from code: a plugin whose `apply` never finishes fails the build with
 * a message naming it, what was waited for and how to allow longer — never a harness without
 * it, even when optional — and nothing after it is applied. A bad `startupTimeoutMs` is refused.
 */
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ConfigErrors, createHarness, LoaderCodes } from '../src/index.js'

/** A plugin whose apply never settles. */
const stuck = { name: 'stuck', inject: ['tools'], apply: () => new Promise<void>(() => {}) }

/** A plugin that records that it was applied, after an await. */
function recorder() {
  const applied: string[] = []
  const plugin = {
    name: 'recorder',
    inject: ['tools'],
    async apply(_ctx: Context) {
      await new Promise((resolve) => setImmediate(resolve))
      applied.push('recorder')
    },
  }
  return { plugin, applied }
}

async function errorOf(build: Promise<unknown>): Promise<ConfigErrors> {
  const error = await build.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ConfigErrors)
  return error as ConfigErrors
}

describe('the start-up deadline', () => {
  it('fails a plugin whose apply never finishes, naming it and the option to raise, and applies nothing after it', async () => {
    const after = recorder()
    const error = await errorOf(createHarness({ plugins: [{ plugin: stuck, optional: true }, after.plugin], startupTimeoutMs: 200 }))
    expect(error.errors.map((e) => e.code)).toEqual([LoaderCodes.PLUGIN_START_TIMEOUT])
    expect(error.message).toBe('plugins[0] (stuck): its apply() did not finish within 200 ms (an await in apply, or a service it waits for, '
      + 'that never settles?), so the harness does not start and no tool runs; fix the plugin, or if it needs longer to start, '
      + 'raise the startupTimeoutMs option of createHarness (now 200)')
    expect(after.applied).toEqual([])
  })

  it('lets a plugin that finishes starting in time build as usual', async () => {
    const { plugin, applied } = recorder()
    const harness = await createHarness({ plugins: [plugin], startupTimeoutMs: 60_000 })
    expect(applied).toEqual(['recorder'])
    expect(harness.entries.map((e) => e.label)).toEqual(['plugins[0] (recorder)'])
    await harness.dispose()
  })

  it('refuses a startupTimeoutMs that is not a whole number of milliseconds a timer can hold', async () => {
    for (const bad of [0, 1.5, '100', Number.POSITIVE_INFINITY]) {
      const error = await errorOf(createHarness({ plugins: [recorder().plugin], startupTimeoutMs: bad as number }))
      expect(error.message).toBe(`startupTimeoutMs: startupTimeoutMs must be a whole number of milliseconds from 1 to 2147483647 (got ${JSON.stringify(bad)}); the default is 30000`)
    }
  })
})
