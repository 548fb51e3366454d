/**
 * `createHarness` builds from code what `loadHarness` builds from a file: the real kernel,
 * plugins then tools in order, and every problem at once, each naming its entry. A plugin with
 * a bad config never leaves a harness that runs without it.
 */
import * as permissionGuard from '@rein/plugin-permission-guard'
import type { ToolMessage } from '@rein/kernel'
import { callMessage, scripted, textMessage, toolCall } from '@rein/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ConfigErrors, createHarness, type HarnessOptions } from '../src/index.js'
import * as configured from './fixtures/configured.js'
import * as echoTool from './fixtures/echo-tool.js'
import * as needsService from './fixtures/needs-service.js'
import outer from './fixtures/outer.js'
import * as throws from './fixtures/throws.js'
import { tracer } from './fixtures/trace.js'

const inner = tracer('inner')

/** A tool source whose `remove` tool counts how often its body ran. */
function countingTools() {
  const counter = { runs: 0 }
  const plugin = {
    name: 'counting',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.tools.register({ name: 'remove', description: 'Removes everything.', parameters: { type: 'object' }, execute: () => ++counter.runs })
    },
  }
  return { plugin, counter }
}

async function problemsOf(options: HarnessOptions): Promise<string[]> {
  const error = await createHarness(options).then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ConfigErrors)
  return (error as ConfigErrors).message.split('\n')
}

describe('createHarness', () => {
  it('runs a tool end to end: the real kernel, plugins in order, a scripted model', async () => {
    const provider = scripted([callMessage([toolCall('c1', 'echo', { text: 'hi' })]), textMessage('Said hi.')])
    const harness = await createHarness({ provider, plugins: [outer, [inner]], tools: [{ plugin: echoTool }], agent: { maxTurns: 3 } })
    expect(harness.ctx.tools.chain('tools/execute')).toEqual(['outer', 'inner'])
    expect(harness.entries.map((e) => e.label)).toEqual(['plugins[0] (outer)', 'plugins[1] (inner)', 'tools[0] (echo-tool)'])
    expect(harness.warnings).toEqual([])

    const outcome = await harness.agent.run('say hi')
    expect(outcome.kind).toBe('completed')
    const result = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')
    expect(result).toMatchObject({ toolCallId: 'c1', isError: false, content: [{ type: 'text', text: 'hi' }] })
    const direct = await harness.ctx.tools.execute({ id: 'c2', name: 'echo', arguments: { text: 'again' } })
    expect((direct as { meta?: { order?: string[] } }).meta?.order).toEqual(['outer:in', 'inner:in', 'inner:out', 'outer:out'])
    await harness.dispose()
    expect(harness.ctx.get('tools')).toBeUndefined()
  })

  it('throws for a deny-by-default permission guard with a bad config, and no tool runs', async () => {
    const { plugin, counter } = countingTools()
    const provider = scripted([callMessage([toolCall('c1', 'remove')]), textMessage('Done.')])
    const lines = await problemsOf({
      provider,
      plugins: [[permissionGuard, { default: 'deny', rules: [{ tool: 'remove', action: 'allwo' }] }]],
      tools: [plugin],
    })
    expect(lines).toEqual(['plugins[0] (permission-guard): rules[0].action must be one of "allow" | "deny" | "ask" (got "allwo")'])
    expect(counter.runs).toBe(0)
    expect(provider.requests).toHaveLength(0)
  })

  it('reports two bad entries as two lines, in entry order', async () => {
    expect(await problemsOf({ plugins: [throws, [configured, { maxAttempts: 'x' }]], tools: [echoTool] })).toEqual([
      'plugins[0] (throws): the plugin failed to start: cannot open the policy database',
      'plugins[1] (configured): maxAttempts must be a number (got "x")',
    ])
  })

  it('names every problem with the options and the entries', async () => {
    const lines = await problemsOf({
      provider: {},
      plugins: [[outer, {}, 'extra'], { plugin: inner, confg: {} }, { plugin: echoTool, optional: 'yes' }, 42],
      tool: [echoTool],
      agent: { maxTurns: -1 },
    } as unknown as HarnessOptions)
    expect(lines).toEqual([
      'unknown option "tool" (did you mean "tools"?); valid keys: provider, plugins, tools, agent, session, startupTimeoutMs',
      'provider: a provider is an object with generate(req)',
      'agent: maxTurns must be a positive integer (got -1)',
      'plugins[0]: an entry list is [plugin, config?] (got 3 items)',
      'plugins[1]: unknown entry key "confg" (did you mean "config"?); valid keys: plugin, config, optional',
      'plugins[2]: "optional" must be true or false (got "yes")',
      expect.stringMatching(/^plugins\[3\]: this value is not a cordis plugin: .*; it is number$/),
    ])
  })

  it('leaves out an optional entry that fails, with a warning naming it, and the rest runs', async () => {
    const harness = await createHarness({
      plugins: [{ plugin: throws, optional: true }, { plugin: needsService, optional: true }, outer],
      tools: [echoTool],
    })
    expect(harness.warnings).toEqual([
      'plugins[0] (throws): the plugin failed to start: cannot open the policy database; ' +
        'this plugin is NOT active; the entry is optional, so the harness runs without it',
      'plugins[1] (needs-service): the plugin failed to start: it needs the service "vault", which no plugin provides; ' +
        'list the plugin that provides it before this one; this plugin is NOT active; the entry is optional, so the harness runs without it',
    ])
    expect(await harness.ctx.tools.execute({ id: 'c1', name: 'echo', arguments: { text: 'ok' } })).toMatchObject({ isError: false, value: 'ok' })
    await harness.dispose()
  })

  it('says to pass a provider when the agent is used without one', async () => {
    const harness = await createHarness({ tools: [echoTool] })
    expect(() => harness.agent).toThrow(/^no provider: pass \{ provider \} to createHarness$/)
    await harness.dispose()
  })
})
