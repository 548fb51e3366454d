/**
 * Few-shot examples. The files named by `examples:` in rein.yaml are their one home; the
 * agent's system prompt is built from them (`system-prompt.ts`), and `agent.system` may hold
 * more, written inline (`inline-examples.ts`). Every one is held to its tool's schema in the
 * harness's own registry: `checkExamples` is what `rein check` prints, and the agent is built
 * from examples only when the same check finds nothing. Problems are values, each a line
 * `file:line example[i] tool: message`; nothing here throws at a bad example.
 */
import { readFile as readText } from 'node:fs/promises'
import type { Context } from 'cordis'
import type { HarnessConfig } from './config.js'
import { ConfigErrors } from './errors.js'
import { redactProblems } from './env-secrets.js'
import { checkExample } from './example-check.js'
import { readExampleFile } from './example-file.js'
import { renderExamples } from './example-render.js'
import { callsOf, problem, type ExampleItem, type ExampleProblem, type ExampleReport, type ToolCallExample } from './example-types.js'
import type { Harness } from './harness.js'
import { findInlineExamples } from './inline-examples.js'
import { parseYaml, readYaml, type YamlSource } from './source.js'

export type { ExampleItem, ExampleProblem, ExampleReport, ToolCallExample } from './example-types.js'

/** Where `agent.system` is written: the config file, the line of its key, and the file's lines. */
export interface SystemPlace {
  file: string
  line: number
  lines: readonly string[]
}

/** What the examples are read from, before any tool is known: read once, checked against a registry later. */
export interface PromptSources {
  /** The example files in config order, each with its items (none when it could not be read). */
  files: { file: string, source: YamlSource | undefined, items: ExampleItem[] }[]
  /** Files that could not be read and items that are malformed. */
  problems: ExampleProblem[]
  /** Where `agent.system` sits in the config file, when it holds inline examples. */
  place: SystemPlace | undefined
}

/** No example files and no file for `agent.system`: a harness built in code. */
export const NO_PROMPT_SOURCES: PromptSources = Object.freeze({ files: [], problems: [], place: undefined })

/** Reads the config's example files, and where its `agent.system` is written. Never throws for a bad file. */
export async function readPromptSources(config: Pick<HarnessConfig, 'file' | 'examples' | 'agent'>): Promise<PromptSources> {
  const sources: PromptSources = { files: [], problems: [], place: undefined }
  for (const file of config.examples) {
    let source: YamlSource | undefined
    try {
      source = await readYaml(file)
    } catch (error) {
      if (!(error instanceof ConfigErrors)) throw error
      for (const { line, detail } of error.errors) sources.problems.push(problem(file, line, undefined, undefined, detail))
    }
    sources.files.push({ file, source, items: source ? readExampleFile(source, sources.problems) : [] })
  }
  const found = config.agent.system === undefined ? undefined : findInlineExamples(config.agent.system)
  if (found && found.examples.length + found.problems.length > 0) sources.place = await placeOf(config.file)
  return sources
}

/** What checking the examples against a registry found; `render()` is the section the model is shown. */
export interface PromptExamination extends ExampleReport {
  render(): string | undefined
}

/** Checks every example of `sources` and of `system` against the tools registered on `ctx`. */
export function examinePrompt(ctx: Context, sources: PromptSources, system: string | undefined): PromptExamination {
  const problems = [...sources.problems]
  const values = new Map<ToolCallExample, unknown>()
  let checked = 0
  for (const { source, items } of sources.files) {
    for (const example of callsOf(items)) {
      const result = checkExample(ctx, example, source?.lineOf)
      values.set(example, result.value)
      problems.push(...result.problems)
      checked++
    }
  }
  const inline = inlineExamples(system, sources.place, problems)
  for (const example of inline) problems.push(...checkExample(ctx, example).problems)
  const order = (file: string | undefined) => sources.files.findIndex((entry) => entry.file === file)
  problems.sort((a, b) => order(a.file) - order(b.file) || (a.line ?? 0) - (b.line ?? 0))
  const items = sources.files.flatMap((entry) => entry.items)
  return {
    checked: checked + inline.length,
    inline: inline.length,
    problems,
    render: () => renderExamples(items, (call) => values.get(call)),
  }
}

/** Reads every file in the config's `examples`, and the examples inline in `agent.system`, without checking them. */
export async function loadExamples(harness: Pick<Harness, 'config'>): Promise<{ examples: ToolCallExample[], problems: ExampleProblem[] }> {
  const sources = await readPromptSources(harness.config)
  const problems = [...sources.problems]
  const files = sources.files.flatMap((entry) => callsOf(entry.items))
  const examples = [...files, ...inlineExamples(harness.config.agent.system, sources.place, problems)]
  return { examples, problems: redactProblems(harness.config, problems) }
}

/** Validates every example's arguments against its tool's parameter schema, in the harness's own registry. */
export async function checkExamples(harness: Pick<Harness, 'config' | 'ctx'>): Promise<ExampleReport> {
  const { checked, inline, problems } = examinePrompt(harness.ctx, await readPromptSources(harness.config), harness.config.agent.system)
  return { checked, inline, problems: redactProblems(harness.config, problems) }
}

/** The inline examples of `system` as example calls, placed on the config file's lines when `place` is known. */
function inlineExamples(system: string | undefined, place: SystemPlace | undefined, problems: ExampleProblem[]): ToolCallExample[] {
  if (system === undefined) return []
  const found = findInlineExamples(system)
  let from = place ? place.line - 1 : 0
  const locate = (line: number, text: string) => {
    if (!place) return { file: undefined, line: undefined, label: `agent.system line ${line}` }
    const at = text === '' ? -1 : place.lines.findIndex((raw, i) => i >= from && raw.includes(text))
    if (at >= 0) from = at + 1
    return { file: place.file, line: at >= 0 ? at + 1 : place.line, label: 'agent.system' }
  }
  const byLine = [...found.examples.map((e) => ({ ...e, kind: 'call' as const })), ...found.problems.map((p) => ({ ...p, kind: 'problem' as const }))]
    .sort((a, b) => a.line - b.line)
  return byLine.flatMap((entry) => {
    const where = locate(entry.line, entry.text)
    if (entry.kind === 'problem') {
      problems.push(problem(where.file, where.line, where.label, undefined, entry.detail))
      return []
    }
    return [{ ...where, tool: entry.tool, arguments: entry.arguments, path: [] }]
  })
}

/** The config file's lines and the line of `agent.system` in it; undefined when the file no longer reads. */
async function placeOf(file: string): Promise<SystemPlace | undefined> {
  try {
    const text = await readText(file, 'utf8')
    return { file, line: parseYaml(file, text).lineOf(['agent', 'system']), lines: text.split(/\r?\n/) }
  } catch {
    return undefined
  }
}
