/**
 * Claude Code's own tools as rein knows them under the hook: decide-only definitions whose
 * schemas are the tools' documented inputs, so permission-guard rules with `when:` work on their
 * arguments and an input that does not fit is refused. Their bodies never run (Claude Code runs
 * the tool). Paths: Claude Code sends them absolute; rein shows rules a path inside the hook's
 * `cwd` as `./x` (normalised: `src/../.env` is `./.env`) and any other as a normalised absolute path.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { defineTool, type StandardSchema, type ToolDefinition } from '@rein/kernel'

const str = { type: 'string' } as const
const num = { type: 'number' } as const
type Field = typeof str | typeof num | { type: 'array' }
/** Each tool's documented input: the fields rules may name, the ones it cannot go without. */
const INPUTS: Record<string, { properties: Record<string, Field>, required: string[], paths?: string[] }> = {
  Bash: { properties: { command: str, description: str, timeout: num }, required: ['command'] },
  Read: { properties: { file_path: str, offset: num, limit: num }, required: ['file_path'], paths: ['file_path'] },
  Edit: { properties: { file_path: str, old_string: str, new_string: str }, required: ['file_path'], paths: ['file_path'] },
  MultiEdit: { properties: { file_path: str, edits: { type: 'array' } }, required: ['file_path'], paths: ['file_path'] },
  Write: { properties: { file_path: str, content: str }, required: ['file_path'], paths: ['file_path'] },
  NotebookEdit: { properties: { notebook_path: str }, required: ['notebook_path'], paths: ['notebook_path'] },
  Glob: { properties: { pattern: str, path: str }, required: ['pattern'], paths: ['path'] },
  Grep: { properties: { pattern: str, path: str }, required: ['pattern'], paths: ['path'] },
  WebFetch: { properties: { url: str, prompt: str }, required: ['url'] },
  WebSearch: { properties: { query: str }, required: ['query'] },
}

/** The documented input of Claude Code's tool `name`; undefined for any other name (`toString` included). */
function inputOf(name: string) {
  return Object.hasOwn(INPUTS, name) ? INPUTS[name] : undefined
}

/** The decide-only definition of tool `name`: its documented input, or any object for a tool rein does not know. */
export function hostTool(name: string): ToolDefinition {
  const input = inputOf(name)
  return defineTool({
    name,
    description: `Claude Code's ${name} tool (decided by rein, run by Claude Code).`,
    parameters: input ? documented(input.properties, input.required) : documented({}, []),
    execute() {
      throw new Error(`${name} runs in Claude Code; rein only decides it`)
    },
  })
}

/**
 * A documented input as a Standard Schema: checked by these few lines rather than by ajv, whose
 * first compile would cost a fresh hook process more than the whole check (one process per call).
 */
function documented(properties: Record<string, Field>, required: string[]): StandardSchema {
  const json = { type: 'object', properties, required }
  const validate = (value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { issues: [{ message: 'must be an object' }] }
    const args = value as Record<string, unknown>
    const issues: { message: string, path: string[] }[] = []
    for (const key of required) if (!(key in args)) issues.push({ message: `must have required property '${key}'`, path: [] })
    for (const [key, field] of Object.entries(properties)) {
      const given = args[key]
      if (given === undefined) continue
      const fits = field.type === 'array' ? Array.isArray(given) : typeof given === field.type
      if (!fits) issues.push({ message: `must be ${field.type}`, path: [key] })
    }
    return issues.length ? { issues } : { value }
  }
  return { '~standard': { version: 1, vendor: 'rein-hook', validate, jsonSchema: { input: () => json } } }
}

/** The names a Claude Code tool is judged under: `mcp__<server>__<tool>` is also rein's `<server>__<tool>`. */
export function namesOf(toolName: string): string[] {
  const mcp = /^mcp__(.+__.+)$/.exec(toolName)
  return mcp ? [toolName, mcp[1]!] : [toolName]
}

/** `args` with each path argument of `tool` as rules see it (`./x` inside `cwd`), or undefined when it has none. */
export function pathsForRules(tool: string, args: Record<string, unknown>, cwd: string): Record<string, unknown> | undefined {
  return mapPaths(tool, args, (path) => {
    const absolute = resolve(cwd, path)
    const inside = relative(cwd, absolute)
    if (inside === '') return '.'
    return inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside) ? absolute : `./${inside.split(sep).join('/')}`
  })
}

/**
 * `args` with each path argument of `tool` absolute and normalised, or undefined when it has none:
 * for `updatedInput`, and to judge the absolute spelling too (a deny or ask written that way still holds).
 */
export function pathsForHost(tool: string, args: Record<string, unknown>, cwd: string): Record<string, unknown> | undefined {
  return mapPaths(tool, args, (path) => resolve(cwd, path))
}

/**
 * `args` with each path argument of `tool` replaced by `path`, or undefined when it has none: a
 * call that rules about a particular path do not decide (what the default and the rules that
 * name no path give it).
 */
export function pathsSetTo(tool: string, args: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  return mapPaths(tool, args, () => path)
}

function mapPaths(tool: string, args: Record<string, unknown>, map: (path: string) => string): Record<string, unknown> | undefined {
  const keys = inputOf(tool)?.paths?.filter((key) => typeof args[key] === 'string' && args[key] !== '')
  if (!keys?.length) return undefined
  const out = { ...args }
  for (const key of keys) out[key] = map(args[key] as string)
  return out
}
