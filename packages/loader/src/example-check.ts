/**
 * Checks one example tool call the way a call would meet it: the tool must exist, the
 * arguments must be JSON, and they must pass the tool's own check (`ctx.tools.checkArguments`:
 * JSON Schema through ajv, or a Standard Schema). Values the scheduler fills in at run time
 * (`${id.result...}` references, `$depends_on`) are not judged. Each problem names the line of
 * the offending field when the arguments are a YAML value of their own.
 */
import type { Context } from 'cordis'
import { isRecord, problem, type ExampleProblem, type ToolCallExample } from './example-types.js'
import type { ValuePath } from './source.js'
import { jsonErrorText } from './json-error.js'

/** One example after its check: the arguments as judged (undefined when they are not JSON) and its problems. */
export interface CheckedExample {
  example: ToolCallExample
  value: unknown
  problems: ExampleProblem[]
}

/** Checks `example` against the tools registered on `ctx`. `lineOf` places a field of an example file. */
export function checkExample(ctx: Context, example: ToolCallExample, lineOf?: (path: ValuePath) => number): CheckedExample {
  const problems: ExampleProblem[] = []
  const report = (detail: string, line = example.line) =>
    problems.push(problem(example.file, line, example.label, example.tool, detail))
  const args = parseArgs(example.arguments)
  if (!ctx.tools.get(example.tool)) {
    const known = ctx.tools.specs().map((spec) => spec.name)
    report(`unknown tool; the harness has ${known.length ? known.join(', ') : 'no tools'}`)
    return { example, value: args.ok ? args.value : undefined, problems }
  }
  if (!args.ok) {
    report(args.detail)
    return { example, value: undefined, problems }
  }
  const { value, references } = withoutReferences(args.value)
  const lines = (ctx.tools.checkArguments(example.tool, value) ?? [])
    .filter((line) => !references.some((ref) => pointerOf(line)?.startsWith(ref)))
  for (const line of lines) {
    const pointer = pointerOf(line)
    const at = pointer && lineOf && typeof example.arguments !== 'string'
      ? lineOf([...example.path, ...pointer.split('/').slice(1).map(unescapePointer)])
      : example.line
    report(line, at)
  }
  return { example, value: args.value, problems }
}

/** Arguments the way the scheduler reads them: an object as is, a JSON string parsed, empty or missing as `{}`. */
export function parseArgs(raw: unknown): { ok: true, value: unknown } | { ok: false, detail: string } {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: {} }
  if (typeof raw !== 'string') return { ok: true, value: raw }
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch (error) {
    return { ok: false, detail: `arguments are not valid JSON: ${jsonErrorText(error)}` }
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
