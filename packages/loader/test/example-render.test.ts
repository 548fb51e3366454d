import { describe, expect, it } from 'vitest'
import { composeSystem, EXAMPLES_HEADING, renderExamples } from '../src/example-render.js'
import type { ExampleItem, ToolCallExample } from '../src/example-types.js'

const call = (tool: string, args: unknown, id?: string): ToolCallExample =>
  ({ file: 'x.yaml', line: 1, label: 'example[0]', tool, arguments: args, path: [], ...(id ? { id } : {}) })

describe('renderExamples', () => {
  it('prints one line per call under a heading, and the calls of one message indented with their ids', () => {
    const items: ExampleItem[] = [
      { kind: 'call', call: call('read_file', { path: 'README.md', limit: 40 }) },
      { kind: 'message', content: 'Read, then note.', calls: [call('lookup', { key: 'b' }, 'ex1'), call('write_note', { text: '${ex1.result}' }, 'ex2')] },
      { kind: 'message', content: undefined, calls: [call('list_dir', {})] },
      { kind: 'message', content: undefined, calls: [] },
    ]
    expect(renderExamples(items, (c) => c.arguments)).toBe([
      EXAMPLES_HEADING,
      'One call per line: the tool name, then its arguments as JSON.',
      'Calls indented under "In one message:" are made together in one reply; "<id>:" names a call that others may reference.',
      'read_file {"path":"README.md","limit":40}',
      'In one message: "Read, then note."',
      '  ex1: lookup {"key":"b"}',
      '  ex2: write_note {"text":"${ex1.result}"}',
      'list_dir {}',
    ].join('\n'))
  })

  it('prints the arguments it is given (the checked ones), not the text as written', () => {
    const written = call('read_file', '{ "path" : "a" }')
    expect(renderExamples([{ kind: 'call', call: written }], () => ({ path: 'a' }))?.split('\n').at(-1)).toBe('read_file {"path":"a"}')
  })

  it('has nothing to show without calls', () => {
    expect(renderExamples([], () => ({}))).toBeUndefined()
  })
})

describe('composeSystem', () => {
  it('puts the examples after agent.system, one blank line between, and keeps each alone as it is', () => {
    expect(composeSystem('Be brief.', '## Tool call examples\nx {}')).toBe('Be brief.\n\n## Tool call examples\nx {}')
    expect(composeSystem(undefined, 'E')).toBe('E')
    expect(composeSystem('', 'E')).toBe('E')
    expect(composeSystem('Be brief.\n', 'E')).toBe('Be brief.\n\nE')
    expect(composeSystem('Be brief.', undefined)).toBe('Be brief.')
    expect(composeSystem(undefined, undefined)).toBeUndefined()
  })
})
