import { describe, expect, it } from 'vitest'
import { mcpTool } from '../src/tool.js'
import { idleConnection, listed } from './units.js'

describe('mcpTool', () => {
  it('takes name, description, schemas and timeout from the MCP tool and the server', () => {
    const outputSchema = { type: 'object' as const, properties: { n: { type: 'number' } } }
    const tool = mcpTool(idleConnection('srv', 2500), listed('count', { description: 'Counts.', outputSchema }), 'srv__count')
    expect(tool).toMatchObject({ name: 'srv__count', description: 'Counts.', timeoutMs: 2500 })
    expect(tool.parameters).toEqual({ type: 'object', properties: {} })
    expect(tool.output?.schema).toEqual(outputSchema)
  })

  it('falls back to the title, then to a sentence naming the server, for the description', () => {
    expect(mcpTool(idleConnection(), listed('a', { title: 'The A tool' }), 'srv__a').description).toBe('The A tool')
    expect(mcpTool(idleConnection(), listed('a'), 'srv__a').description).toBe('Tool "a" of the MCP server "srv".')
  })

  it('is concurrency-safe and idempotent only for readOnlyHint: true', () => {
    const reader = mcpTool(idleConnection(), listed('r', { annotations: { readOnlyHint: true } }), 'srv__r')
    expect(reader.isConcurrencySafe?.({})).toBe(true)
    expect(reader.idempotent).toBe(true)
    const hinted = mcpTool(idleConnection(), listed('w', { annotations: { readOnlyHint: false, idempotentHint: true } }), 'srv__w')
    expect(hinted.isConcurrencySafe).toBeUndefined()
    expect(hinted.idempotent).toBeUndefined()
  })

  it('drops a top-level $id, so a changed tool can be registered again', () => {
    const tool = mcpTool(idleConnection(),
      listed('a', { inputSchema: { $id: 'https://example.com/a.json', type: 'object', properties: { x: { type: 'string' } } } }), 'srv__a')
    expect(tool.parameters).toEqual({ type: 'object', properties: { x: { type: 'string' } } })
  })

  it('caps a call at maxTotalMs, by default 10 x timeoutMs (and 10 x the SDK default without one)', () => {
    expect(idleConnection('srv', 2500).maxTotalMs).toBe(25_000)
    expect(idleConnection().maxTotalMs).toBe(600_000)
  })

  it('registers the schemas without their regular expressions', () => {
    const tool = mcpTool(idleConnection(), listed('a', {
      inputSchema: { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } },
      outputSchema: { type: 'object', patternProperties: { '^(a+)+$': {} }, additionalProperties: false },
    }), 'srv__a')
    expect(tool.parameters).toEqual({ type: 'object', properties: { x: { type: 'string' } } })
    expect(tool.output?.schema).toEqual({ type: 'object' })
  })

  it('renders content blocks as they are and structured content as JSON', () => {
    const render = mcpTool(idleConnection(), listed('a'), 'srv__a').output!.render!
    const blocks = [{ type: 'text' as const, text: 'hi' }]
    expect(render({}, blocks)).toEqual(blocks)
    expect(render({}, { n: 1 })).toEqual([{ type: 'text', text: '{"n":1}' }])
  })
})
