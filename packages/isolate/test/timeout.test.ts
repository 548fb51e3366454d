import { afterEach, describe, expect, it } from 'vitest'
import { TOOL_TIMEOUT } from '@rein/kernel'
import * as timeout from '@rein/plugin-timeout-policy'
import type { IsolatedTool } from '../src/index.js'
import { fixtureTool, harness, outcome } from './helpers.js'

/** The deadline of the calls that must succeed. */
const ROOMY_MS = 60_000

const tools: IsolatedTool[] = []
afterEach(async () => { await Promise.all(tools.splice(0).map((tool) => tool.dispose())) })

describe('with @rein/plugin-timeout-policy', () => {
  // graceMs is only an upper bound: an isolated tool settles as soon as its signal aborts,
  // so the result is a plain TOOL_TIMEOUT, never 'ToolTimeoutAbandoned'.
  it('a spinning tool times out without being abandoned, and the next call gets a new worker', async () => {
    const spin = fixtureTool('spin', 'spin', { timeoutMs: 200 })
    tools.push(spin)
    const ctx = await harness()
    ctx.tools.register(spin)
    const run = (id: string, args: Record<string, unknown>) => ctx.tools.execute({ id, name: 'spin', arguments: args })
    // The calls that must succeed start a worker, which a loaded machine may take longer than
    // the tool's 200 ms to do: the plugin's override gives them a roomy deadline instead.
    const roomy = { graceMs: 60_000, tools: { spin: ROOMY_MS } }
    const deadline = ctx.plugin(timeout, roomy)

    // A first, finite call leaves one idle worker; the spinning call reuses it.
    const warm = await run('c1', { once: true })
    expect(outcome(warm)).toEqual(['OK'])
    expect(spin.threads()).toBe(1)

    deadline.update({ graceMs: 60_000 })
    expect(outcome(await run('c2', {}))).toEqual([TOOL_TIMEOUT, undefined])
    await spin.settled()
    expect(spin.threads()).toBe(0)

    deadline.update(roomy)
    const next = await run('c3', { once: true })
    expect(outcome(next)).toEqual(['OK'])
    expect((next as { value: number }).value).not.toBe((warm as { value: number }).value)
  })
})
