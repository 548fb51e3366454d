/**
 * How the few-shot examples reach the model: one section of plain text after `agent.system`
 * in the system prompt. Each call is one line, `tool_name {"json":"arguments"}`, with the
 * arguments exactly as they were checked (parsed, then printed as compact JSON, keys in the
 * order written); the calls of one assistant message are indented under `In one message:`.
 * Rendering is a pure function of the checked examples: the same files give the same bytes.
 */
import type { ExampleItem, ToolCallExample } from './example-types.js'

/** The first line of the section: how the model (and a reader of a transcript) finds it. */
export const EXAMPLES_HEADING = '## Tool call examples'

const LEGEND = [
  'One call per line: the tool name, then its arguments as JSON.',
  'Calls indented under "In one message:" are made together in one reply; "<id>:" names a call that others may reference.',
]

/** The examples section, or undefined when there is no call to show. `valueOf` gives a call's checked arguments. */
export function renderExamples(items: readonly ExampleItem[], valueOf: (call: ToolCallExample) => unknown): string | undefined {
  const line = (call: ToolCallExample) => `${call.tool} ${JSON.stringify(valueOf(call))}`
  const body = items.flatMap((item) => {
    if (item.kind === 'call') return [line(item.call)]
    if (item.calls.length === 0) return []
    if (item.calls.length === 1 && item.content === undefined) return [line(item.calls[0])]
    const note = item.content === undefined ? '' : ` ${JSON.stringify(item.content)}`
    return [`In one message:${note}`, ...item.calls.map((call) => `  ${call.id === undefined ? '' : `${call.id}: `}${line(call)}`)]
  })
  return body.length ? [EXAMPLES_HEADING, ...LEGEND, ...body].join('\n') : undefined
}

/** The system prompt: `agent.system` (its trailing blank space dropped), then the examples section, one blank line between. */
export function composeSystem(system: string | undefined, examples: string | undefined): string | undefined {
  if (examples === undefined) return system
  const text = system?.trimEnd() ?? ''
  return text === '' ? examples : `${text}\n\n${examples}`
}
