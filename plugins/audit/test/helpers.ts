/** A real kernel, a temp dir for the audit file (removed when the test finishes), and ways to read it back. */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExecutionResult } from '@rein/kernel'
import { onTestFinished } from 'vitest'

/** A fresh folder under the OS temp folder; removed when the test finishes, pass or fail. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rein-audit-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

export async function kernelContext(): Promise<Context> {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  return ctx
}

/** Registers `echo` (returns its `text`), `fail` (throws) and `strict` (needs a string `path`). */
export function registerTools(ctx: Context) {
  ctx.tools.register(defineTool({ name: 'echo', description: 'echo', parameters: { type: 'object' }, execute: (args: { text?: string }) => args.text ?? '' }))
  ctx.tools.register(defineTool({ name: 'fail', description: 'fail', parameters: { type: 'object' }, execute: () => { throw new Error('it broke') } }))
  ctx.tools.register(defineTool({
    name: 'strict', description: 'strict',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: () => 'ok',
  }))
}

/** The parsed lines of a JSONL file ([] when it does not exist). */
export async function readLines(file: string): Promise<Record<string, any>[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return []
  }
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line))
}

export function codeOf(result: ToolExecutionResult): string | undefined {
  return result.isError ? result.error.info?.code : undefined
}

/** A promise with its resolver, to release a waiting step from a test. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => { open = resolve })
  return { promise, open }
}

