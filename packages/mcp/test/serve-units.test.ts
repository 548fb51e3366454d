import { defineTool, type ToolExecutionResult } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { callResult, listTools, parseHostPort, type ToolCatalog } from '../src/serve/index.js'

function catalog(parameters: Record<string, Record<string, unknown>>, outputs: Record<string, Record<string, unknown>> = {}): ToolCatalog {
  return {
    specs: () => Object.entries(parameters).map(([name, schema]) => ({ name, description: `${name}.`, parameters: schema })),
    get: (name) => defineTool({ name, description: `${name}.`, parameters: { type: 'object' }, ...(outputs[name] ? { output: { schema: outputs[name] } } : {}), execute: () => null }),
  }
}

describe('listTools', () => {
  it('lists object schemas as they are, adds the type when none is given, and leaves out the rest with a warning', () => {
    const warnings: string[] = []
    const tools = listTools(catalog({ a: { type: 'object', required: ['x'] }, b: { properties: {} }, c: { type: 'string' } }), undefined, (w) => warnings.push(w))
    expect(tools).toEqual([
      { name: 'a', description: 'a.', inputSchema: { type: 'object', required: ['x'] } },
      { name: 'b', description: 'b.', inputSchema: { type: 'object', properties: {} } },
    ])
    expect(warnings).toEqual(['tool "c" is not offered over MCP: its parameters schema is not of type "object", and MCP arguments are an object'])
  })

  it('hides what the policy denies whatever the arguments, and nothing when the policy throws', () => {
    const tools = catalog({ rm: { type: 'object' }, ls: { type: 'object' } })
    const names = (policy: Parameters<typeof listTools>[1]) => listTools(tools, policy, () => {}).map((tool) => tool.name)
    expect(names({ unconditionalDeny: (name) => (name === 'rm' ? 'never' : undefined) })).toEqual(['ls'])
    expect(names({ unconditionalDeny: () => { throw new Error('broken policy') } })).toEqual(['rm', 'ls'])
    expect(names({} as never)).toEqual(['rm', 'ls'])
  })

  it('lists an object output schema, and no other', () => {
    const tools = listTools(catalog({ a: { type: 'object' }, b: { type: 'object' } }, { a: { type: 'object', required: ['n'] }, b: { type: 'string' } }), undefined, () => {})
    expect(tools.map((tool) => tool.outputSchema)).toEqual([{ type: 'object', required: ['n'] }, undefined])
  })
})

describe('callResult', () => {
  const text = (t: string) => ({ type: 'text' as const, text: t })
  it('gives a failure isError and its text, additional contexts after it', () => {
    const failure: ToolExecutionResult = { isError: true, content: [text('Error: no')], error: { message: 'no' }, additionalContexts: [text('note')] }
    expect(callResult(failure)).toEqual({ isError: true, content: [text('Error: no'), text('note')] })
  })

  it('maps an object value to structuredContent, and no other value', () => {
    expect(callResult({ isError: false, value: { n: 1 }, content: [text('{"n":1}')] })).toEqual({ content: [text('{"n":1}')], structuredContent: { n: 1 } })
    expect(callResult({ isError: false, value: [1], content: [text('[1]')] })).toEqual({ content: [text('[1]')] })
    expect(callResult({ isError: false, value: 'hi', content: [text('hi')] })).toEqual({ content: [text('hi')] })
    expect(callResult({ isError: false, value: [text('hi')], content: [text('hi')] })).toEqual({ content: [text('hi')] })
  })
})

describe('parseHostPort', () => {
  it('reads host:port and [v6]:port, and names the form otherwise', () => {
    expect(parseHostPort('127.0.0.1:3333')).toEqual({ host: '127.0.0.1', port: 3333 })
    expect(parseHostPort('[::1]:0')).toEqual({ host: '::1', port: 0 })
    for (const bad of ['localhost', ':80', '1.2.3.4:99999', 'a:b']) expect(() => parseHostPort(bad)).toThrow(/expected <host:port>/)
  })
})
