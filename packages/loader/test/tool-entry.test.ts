/**
 * One tool in code: `createHarness({ tools: [defineTool(...)] })` registers it beside the
 * plugin entries, whether its parameters are JSON Schema or a zod schema, and every plugin
 * applies to it. Anything else in the list is refused, naming the entry and the shapes that work.
 */
import { defineTool, type ToolMessage } from '@rein/kernel'
import { callMessage, scripted, textMessage, toolCall } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ConfigErrors, createHarness, type HarnessOptions } from '../src/index.js'
import * as echoTool from './fixtures/echo-tool.js'
import outer from './fixtures/outer.js'

const shout = defineTool({
  name: 'shout',
  description: 'Says the text in capitals.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: (args: { text: string }) => args.text.toUpperCase(),
})

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

async function problemsOf(options: HarnessOptions): Promise<string[]> {
  const error = await createHarness(options).then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ConfigErrors)
  return (error as ConfigErrors).message.split('\n')
}

describe('createHarness: tools given directly', () => {
  it('registers a JSON Schema tool and a zod tool beside a tool plugin; the plugins wrap them like any tool', async () => {
    const provider = scripted([
      callMessage([toolCall('c1', 'shout', { text: 'hi' }), toolCall('c2', 'add', { a: 2, b: 3 }), toolCall('c3', 'add', { a: 'two' })]),
      textMessage('done'),
    ])
    const harness = await createHarness({ provider, plugins: [outer], tools: [shout, echoTool, add] })
    try {
      expect(harness.entries.map((e) => e.label)).toEqual(['plugins[0] (outer)', 'tools[0] (shout)', 'tools[1] (echo-tool)', 'tools[2] (add)'])
      expect(harness.ctx.tools.specs().map((s) => s.name).sort()).toEqual(['add', 'echo', 'shout'])
      expect(harness.ctx.tools.specs().find((s) => s.name === 'add')?.parameters).toMatchObject({ type: 'object', required: ['a', 'b'] })

      const outcome = await harness.agent.run('go')
      const results = outcome.messages.filter((m): m is ToolMessage => m.role === 'tool')
      expect(results.map((r) => [r.toolCallId, r.isError, r.content[0]])).toEqual([
        ['c1', false, { type: 'text', text: 'HI' }],
        ['c2', false, { type: 'text', text: '5' }],
        ['c3', true, { type: 'text', text: expect.stringMatching(/^Error: invalid arguments for "add": \/a: .*expected number/) }],
      ])
      const direct = await harness.ctx.tools.execute({ id: 'c4', name: 'shout', arguments: { text: 'x' } })
      expect((direct as { meta?: { order?: string[] } }).meta?.order).toEqual(['outer:in', 'outer:out'])
    } finally {
      await harness.dispose()
    }
    expect(harness.ctx.get('tools')).toBeUndefined()
  })

  it('refuses what is neither a plugin nor a tool, a tool given a config, a tool under plugins, and a tool the kernel rejects', async () => {
    const lines = await problemsOf({
      plugins: [shout],
      tools: [
        { name: 'half', description: 'no body', parameters: { type: 'object' } },
        [shout, { loud: true }],
        defineTool({ name: 'bad', description: 'x', parameters: { type: 'object', properties: { n: { type: 'nonsense' } } }, execute: () => 1 }),
      ],
    } as unknown as HarnessOptions)
    expect(lines[0]).toBe('plugins[0] (shout): this is the tool "shout", not a plugin: list it under tools')
    expect(lines[1]).toBe('tools[0]: this value is neither a plugin nor a tool; an entry is a plugin, [plugin, config?], ' +
      '{ plugin, config?, optional? }, or (under tools) a tool made with defineTool({ name, description, parameters, execute }); ' +
      'it has the keys: name, description, parameters')
    expect(lines[2]).toBe('tools[1] (shout): a tool takes no config: list the tool alone, not [tool, config]')
    expect(lines[3]).toMatch(/^tools\[2\] \(bad\): the plugin failed to start: tool "bad" .*parameters is not a valid JSON Schema/)
    expect(lines).toHaveLength(4)
  })
})
