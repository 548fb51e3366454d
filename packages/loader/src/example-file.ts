/**
 * The format of an example file (YAML or JSON): a list whose items are `{ tool, arguments }`
 * or an assistant message `{ role: assistant, content?, toolCalls: [{ id?, name, arguments }] }`;
 * other messages (user, tool, system) are skipped. Reading never throws: a malformed item is
 * a problem at its line, and the other items are still read.
 */
import { isRecord, problem, type ExampleItem, type ExampleProblem } from './example-types.js'
import type { ValuePath, YamlSource } from './source.js'

/** The items of one parsed example file, in file order; problems are pushed to `problems`. */
export function readExampleFile(source: YamlSource, problems: ExampleProblem[]): ExampleItem[] {
  const { file, data } = source
  const items: ExampleItem[] = []
  if (data === undefined) return items
  if (!Array.isArray(data)) {
    problems.push(problem(file, 1, undefined, undefined, 'an example file must be a list of { tool, arguments } or assistant messages with toolCalls'))
    return items
  }
  data.forEach((item: unknown, index) => {
    const label = `example[${index}]`
    const bad = (detail: string, path: ValuePath = [index]) => problems.push(problem(file, source.lineOf(path), label, undefined, detail))
    if (!isRecord(item)) return bad('an example must be { tool, arguments } or { role: assistant, toolCalls }')
    if (typeof item.tool === 'string') {
      const path: ValuePath = [index, 'arguments']
      items.push({ kind: 'call', call: { file, line: source.lineOf(path), label, tool: item.tool, arguments: item.arguments, path } })
      return
    }
    if (item.role !== undefined && item.role !== 'assistant') return
    if (item.role === undefined && item.toolCalls === undefined) return bad('an example needs "tool" (the tool name) and "arguments"')
    if (item.toolCalls === undefined) return
    if (!Array.isArray(item.toolCalls)) return bad('"toolCalls" must be a list of { id?, name, arguments }', [index, 'toolCalls'])
    const calls = item.toolCalls.flatMap((call: unknown, n) => {
      const at: ValuePath = [index, 'toolCalls', n]
      if (!isRecord(call) || typeof call.name !== 'string') {
        bad('a tool call needs a "name"', at)
        return []
      }
      const path: ValuePath = [...at, 'arguments']
      const id = typeof call.id === 'string' && call.id !== '' ? { id: call.id } : {}
      return [{ file, line: source.lineOf(path), label: `${label}.toolCalls[${n}]`, tool: call.name, arguments: call.arguments, path, ...id }]
    })
    items.push({ kind: 'message', content: typeof item.content === 'string' && item.content !== '' ? item.content : undefined, calls })
  })
  return items
}
