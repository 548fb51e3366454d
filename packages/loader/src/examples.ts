/**
 * Few-shot examples, checked against the tools they call (a tool's parameters live in its
 * schema; examples must agree with it). An example file (YAML or JSON) is a list whose items
 * are `{ tool, arguments }` or an assistant message `{ role: assistant, content?, toolCalls:
 * [{ id?, name, arguments }] }`; other messages (user, tool, system) are skipped. Every
 * problem is reported as `file:line example[i] tool: message`, never thrown.
 */
import { ConfigErrors, formatLocation } from './errors.js'
import type { Harness } from './harness.js'
import { readYaml, type ValuePath, type YamlSource } from './source.js'

/** One tool call taken from an example file. */
export interface ToolCallExample {
  file: string
  line: number
  /** `example[3]`, or `example[3].toolCalls[1]` inside an assistant message. */
  label: string
  tool: string
  /** The arguments as written (an object, or the JSON string of one). */
  arguments: unknown
  /** Where the arguments sit in the file. */
  path: ValuePath
}

/** A problem with an example or an example file. `message` is the full line to print. */
export interface ExampleProblem {
  file: string
  line: number | undefined
  label: string | undefined
  tool: string | undefined
  detail: string
  message: string
}

/** What `checkExamples` found. */
export interface ExampleReport {
  /** How many tool calls were checked. */
  checked: number
  problems: ExampleProblem[]
}

/** Reads every file in the config's `examples`. Unreadable files and malformed items are problems. */
export async function loadExamples(harness: Pick<Harness, 'config'>): Promise<{ examples: ToolCallExample[], problems: ExampleProblem[] }> {
  const { examples, problems } = await gather(harness.config.examples)
  return { examples, problems }
}

async function gather(files: readonly string[]) {
  const examples: ToolCallExample[] = []
  const problems: ExampleProblem[] = []
  const sources = new Map<string, YamlSource>()
  for (const file of files) {
    let source: YamlSource
    try {
      source = await readYaml(file)
    } catch (error) {
      if (!(error instanceof ConfigErrors)) throw error
      for (const { line, detail } of error.errors) problems.push(problem(file, line, undefined, undefined, detail))
      continue
    }
    sources.set(file, source)
    readFile(source, examples, problems)
  }
  return { examples, problems, sources }
}

/** Validates every example's arguments against its tool's parameter schema, in the harness's own registry. */
export async function checkExamples(harness: Pick<Harness, 'config' | 'ctx'>): Promise<ExampleReport> {
  const { examples, problems, sources } = await gather(harness.config.examples)
  const known = harness.ctx.tools.specs().map((spec) => spec.name)
  for (const example of examples) {
    const report = (detail: string, line = example.line) =>
      problems.push(problem(example.file, line, example.label, example.tool, detail))
    if (!harness.ctx.tools.get(example.tool)) {
      report(`unknown tool; the harness has ${known.length ? known.join(', ') : 'no tools'}`)
      continue
    }
    const args = parseArgs(example.arguments)
    if (!args.ok) {
      report(args.detail)
      continue
    }
    // The tool's own check, as a call would meet it (JSON Schema through ajv, or a Standard Schema).
    const { value, references } = withoutReferences(args.value)
    const lines = (harness.ctx.tools.checkArguments(example.tool, value) ?? []).filter((line) => !references.some((ref) => pointerOf(line)?.startsWith(ref)))
    const source = sources.get(example.file)!
    for (const line of lines) {
      const pointer = pointerOf(line)
      const at = pointer && typeof example.arguments !== 'string'
        ? source.lineOf([...example.path, ...pointer.split('/').slice(1).map(unescapePointer)])
        : example.line
      report(line, at)
    }
  }
  const order = (file: string) => harness.config.examples.indexOf(file)
  problems.sort((a, b) => order(a.file) - order(b.file) || (a.line ?? 0) - (b.line ?? 0))
  return { checked: examples.length, problems }
}

function readFile(source: YamlSource, examples: ToolCallExample[], problems: ExampleProblem[]): void {
  const { file, data } = source
  if (data === undefined) return
  if (!Array.isArray(data)) {
    problems.push(problem(file, 1, undefined, undefined, 'an example file must be a list of { tool, arguments } or assistant messages with toolCalls'))
    return
  }
  data.forEach((item: unknown, index) => {
    const label = `example[${index}]`
    const bad = (detail: string, path: ValuePath = [index]) => problems.push(problem(file, source.lineOf(path), label, undefined, detail))
    if (!isRecord(item)) return bad('an example must be { tool, arguments } or { role: assistant, toolCalls }')
    if (typeof item.tool === 'string') {
      examples.push({ file, line: source.lineOf([index, 'arguments']), label, tool: item.tool, arguments: item.arguments, path: [index, 'arguments'] })
      return
    }
    if (item.role !== undefined && item.role !== 'assistant') return
    if (item.role === undefined && item.toolCalls === undefined) return bad('an example needs "tool" (the tool name) and "arguments"')
    if (item.toolCalls === undefined) return
    if (!Array.isArray(item.toolCalls)) return bad('"toolCalls" must be a list of { id?, name, arguments }', [index, 'toolCalls'])
    item.toolCalls.forEach((call: unknown, n) => {
      const at: ValuePath = [index, 'toolCalls', n]
      if (!isRecord(call) || typeof call.name !== 'string') return bad('a tool call needs a "name"', at)
      examples.push({ file, line: source.lineOf([...at, 'arguments']), label: `${label}.toolCalls[${n}]`, tool: call.name, arguments: call.arguments, path: [...at, 'arguments'] })
    })
  })
}

/** Arguments the way the scheduler reads them: an object as is, a JSON string parsed, empty or missing as `{}`. */
function parseArgs(raw: unknown): { ok: true, value: unknown } | { ok: false, detail: string } {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: {} }
  if (typeof raw !== 'string') return { ok: true, value: raw }
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch (error) {
    return { ok: false, detail: `arguments are not valid JSON: ${(error as Error).message}` }
  }
}

/**
 * Drops `$depends_on` and notes where a string holds a `${call.result...}` reference: those
 * values are substituted by the scheduler at run time and cannot be judged here.
 */
function withoutReferences(value: unknown): { value: unknown, references: string[] } {
  const references: string[] = []
  const walk = (node: unknown, pointer: string): unknown => {
    if (typeof node === 'string' && /\$\{[\w-]+\.result/.test(node)) references.push(pointer)
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${pointer}/${i}`))
    if (isRecord(node)) {
      return Object.fromEntries(Object.entries(node)
        .filter(([key]) => !(pointer === '' && key === '$depends_on'))
        .map(([key, item]) => [key, walk(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)]))
    }
    return node
  }
  return { value: walk(value, ''), references }
}

/** The JSON pointer an ajv line starts with (`/limit: must be integer` -> `/limit`), if any. */
function pointerOf(line: string): string | undefined {
  return /^(\/[^:]*): /.exec(line)?.[1]
}

function unescapePointer(segment: string): string | number {
  const text = segment.replace(/~1/g, '/').replace(/~0/g, '~')
  return /^\d+$/.test(text) ? Number(text) : text
}

function problem(file: string, line: number | undefined, label: string | undefined, tool: string | undefined, detail: string): ExampleProblem {
  const entry = [label, tool].filter(Boolean).join(' ')
  return { file, line, label, tool, detail, message: `${formatLocation({ file, line, entry })}: ${detail}` }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
