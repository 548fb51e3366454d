import { describe, expect, it } from 'vitest'
import { findInlineExamples } from '../src/inline-examples.js'

describe('findInlineExamples', () => {
  it('reads a line that is only tool_name({...}), in backticks or not, and keeps its JSON text as written', () => {
    const system = [
      'You are careful.',
      'To read a file:',
      '  read_file({"path": "README.md", "limit": 40})',
      '`list_dir({"path": "src"})`',
      'mcp__git__status({})',
    ].join('\n')
    expect(findInlineExamples(system)).toEqual({
      examples: [
        { line: 3, text: 'read_file({"path": "README.md", "limit": 40})', tool: 'read_file', arguments: '{"path": "README.md", "limit": 40}' },
        { line: 4, text: '`list_dir({"path": "src"})`', tool: 'list_dir', arguments: '{"path": "src"}' },
        { line: 5, text: 'mcp__git__status({})', tool: 'mcp__git__status', arguments: '{}' },
      ],
      problems: [],
    })
  })

  it('does not take prose, method calls or calls inside a sentence for examples', () => {
    const system = [
      'Call read_file({"path": "a"}) before you edit.',
      'console.log({"a": 1})',
      'Return {"ok": true} when done.',
      'read_file("a.txt")',
      'Use read_file with { path }.',
    ].join('\n')
    expect(findInlineExamples(system)).toEqual({ examples: [], problems: [] })
  })

  it('keeps a call line whose arguments are not JSON: the check reports it', () => {
    expect(findInlineExamples('read_file({path: a})').examples).toEqual([
      { line: 1, text: 'read_file({path: a})', tool: 'read_file', arguments: '{path: a}' },
    ])
  })

  it('reads ```json blocks holding one call or a list, each at the line that names its tool', () => {
    const system = [
      'Example:',
      '```json',
      '{ "tool": "read_file", "arguments": { "path": "a.md" } }',
      '```',
      '```JSON',
      '[',
      '  { "tool": "grep",',
      '    "arguments": { "pattern": "x" } },',
      '  { "tool": "list_dir", "arguments": {} }',
      ']',
      '```',
      '```json',
      '{ "answer": 42 }',
      '```',
    ].join('\n')
    expect(findInlineExamples(system)).toEqual({
      examples: [
        { line: 3, text: '{ "tool": "read_file", "arguments": { "path": "a.md" } }', tool: 'read_file', arguments: { path: 'a.md' } },
        { line: 7, text: '{ "tool": "grep",', tool: 'grep', arguments: { pattern: 'x' } },
        { line: 9, text: '{ "tool": "list_dir", "arguments": {} }', tool: 'list_dir', arguments: {} },
      ],
      problems: [],
    })
  })

  it('reports a json block that mentions "tool" but does not parse, or names no tool', () => {
    const system = '```json\n{ "tool": "read_file", "arguments": { "path": } }\n```\n```json\n{ "tool": 7 }\n```'
    const { examples, problems } = findInlineExamples(system)
    expect(examples).toEqual([])
    expect(problems).toEqual([
      { line: 2, text: '{ "tool": "read_file", "arguments": { "path": } }', detail: expect.stringMatching(/^a json block that mentions "tool" must be valid JSON: /) },
      { line: 5, text: '{ "tool": 7 }', detail: '"tool" must be the name of a tool' },
    ])
  })

  it('does not read a call line inside a json block as a call of its own', () => {
    expect(findInlineExamples('```json\nread_file({"path": "a"})\n```').examples).toEqual([])
  })
})
