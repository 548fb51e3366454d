// Test helpers: a temp workspace (a root folder and a folder outside it) and a real kernel
// Context with the plugin applied. Everything is removed when the test finishes.
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import type { ExecuteOptions, ToolExecutionResult } from '@rein/kernel'
import { onTestFinished } from 'vitest'
import * as toolsFs from '../src/index.js'

export interface Workspace {
  /** The configured root. */
  root: string
  /** A sibling folder outside the root, holding `secret.txt`. */
  outside: string
  /** Writes `files` (path relative to root -> content) into the root. */
  put(files: Record<string, string | Buffer>): Promise<void>
  /** Runs one tool call through the real pipeline. */
  call(name: string, args: Record<string, unknown>, options?: ExecuteOptions): Promise<ToolExecutionResult>
  ctx: Context
}

let ids = 0

/** A fresh workspace with the plugin mounted on a real kernel. */
export async function workspace(config: Record<string, unknown> = {}): Promise<Workspace> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'rein-fs-')))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const root = path.join(dir, 'root')
  const outside = path.join(dir, 'outside')
  await mkdir(root)
  await mkdir(outside)
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n')
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(toolsFs, { root, ...config })
  await ctx.start()
  onTestFinished(() => ctx.stop())
  return {
    root,
    outside,
    ctx,
    async put(files) {
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(root, file)), { recursive: true })
        await writeFile(path.join(root, file), content)
      }
    },
    call: (name, args, options) => ctx.tools.execute({ id: `call_${++ids}`, name, arguments: args }, options),
  }
}

/** The code of a failed result (undefined for a success). */
export function codeOf(result: ToolExecutionResult): string | undefined {
  return result.isError ? result.error.info?.code : undefined
}

/** The value of a successful result; fails the test with the error text otherwise. */
export function valueOf<T>(result: ToolExecutionResult): T {
  if (result.isError) throw new Error(`expected a success, got ${result.error.info?.code}: ${result.error.message}`)
  return result.value as T
}

/** All text the model sees. */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
}

/** The names in `folder`, sorted: a temporary file left behind shows up here. */
export async function namesIn(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort()
}

/** Whether `prlimit` (util-linux) can set this process's limits. */
export const canLimitFileSize = (() => {
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize', '--output', 'SOFT', '--noheadings'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/**
 * Runs `body` while this process may not make a file larger than `bytes`: a write past that
 * fails with `EFBIG` (Node ignores `SIGXFSZ`), as a full disk would fail it midway. Only the
 * soft limit is lowered, and it is put back afterwards.
 */
export async function withFileSizeLimit<T>(bytes: number, body: () => Promise<T>): Promise<T> {
  const pid = String(process.pid)
  const soft = execFileSync('prlimit', ['--pid', pid, '--fsize', '--output', 'SOFT', '--noheadings', '--raw'], { encoding: 'utf8' }).trim()
  execFileSync('prlimit', ['--pid', pid, `--fsize=${bytes}:`])
  try {
    return await body()
  } finally {
    execFileSync('prlimit', ['--pid', pid, `--fsize=${soft}:`])
  }
}
