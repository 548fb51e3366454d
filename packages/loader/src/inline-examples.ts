/**
 * Finds the tool-call examples written inline in a system prompt, so that `rein check` holds
 * them to their tools' schemas as it does the example files. Two forms are recognised, and
 * nothing else is read as an example:
 *   - a line that is only `tool_name({ ...JSON object... })`, optionally in backticks;
 *   - a fenced ```json block holding `{ "tool": ..., "arguments": ... }` or a list of them.
 * A line of the first form whose arguments are not JSON is still an example (and a problem);
 * a json block that mentions "tool" but does not parse is a problem; one that does not
 * mention it is not an example. Lines are 1-based lines of the prompt text.
 */
import { isRecord } from './example-types.js'
import { jsonErrorText } from './json-error.js'

/** An example found in the prompt: where it is, and the call it shows. */
export interface InlineExample {
  line: number
  /** The line as written, trimmed: what to look for in the config file. */
  text: string
  tool: string
  /** The JSON text between the parentheses, or the parsed `arguments` of a json block. */
  arguments: unknown
}

/** Something that looks like an example but cannot be read as one. */
export interface InlineProblem {
  line: number
  text: string
  detail: string
}

/** `name({...})` alone on a line: the name as a model-facing tool name is spelled, then a JSON object. */
const CALL_LINE = /^`?([A-Za-z_][\w-]*)\((\{.*\})\)`?$/
const JSON_FENCE = /^```\s*json\s*$/i
const FENCE_END = /^```\s*$/

/** Every inline example of `text`, in order, and what looks like one but is not readable. */
export function findInlineExamples(text: string): { examples: InlineExample[], problems: InlineProblem[] } {
  const examples: InlineExample[] = []
  const problems: InlineProblem[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i].trim()
    if (JSON_FENCE.test(trimmed)) {
      let end = i + 1
      while (end < lines.length && !FENCE_END.test(lines[end].trim())) end++
      readJsonBlock(lines.slice(i + 1, end), i + 2, examples, problems)
      i = end
      continue
    }
    const call = CALL_LINE.exec(trimmed)
    if (call) examples.push({ line: i + 1, text: trimmed, tool: call[1], arguments: call[2] })
  }
  return { examples, problems }
}

/** The examples of one ```json block whose first content line is `firstLine`. */
function readJsonBlock(body: string[], firstLine: number, examples: InlineExample[], problems: InlineProblem[]): void {
  const source = body.join('\n')
  if (!source.includes('"tool"')) return
  let value: unknown
  try {
    value = JSON.parse(source)
  } catch (error) {
    problems.push({ line: firstLine, text: body[0]?.trim() ?? '', detail: `a json block that mentions "tool" must be valid JSON: ${jsonErrorText(error)}` })
    return
  }
  // The n-th call of the block is placed at the n-th line that names a "tool".
  const toolLines = body.flatMap((line, k) => /"tool"\s*:/.test(line) ? [k] : [])
  const calls = (Array.isArray(value) ? value : [value]).filter((item) => isRecord(item) && 'tool' in item) as Record<string, unknown>[]
  calls.forEach((call, n) => {
    const k = toolLines.length === calls.length ? toolLines[n] : 0
    const at = { line: firstLine + k, text: body[k]?.trim() ?? '' }
    if (typeof call.tool !== 'string' || call.tool === '') problems.push({ ...at, detail: '"tool" must be the name of a tool' })
    else examples.push({ ...at, tool: call.tool, arguments: call.arguments })
  })
}
