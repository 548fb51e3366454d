/**
 * Test helpers: temp project folders with real files (removed after each test), a plugin
 * that makes parallelism observable without sleeps, an in-memory `Io` for the CLI, and an
 * npm that cannot reach the network (for the example's `npx` MCP server).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context } from 'cordis'
import type { ToolExec, ToolExecutionResult } from '@rein/kernel'
import type { Io } from '@rein/cli'
import { afterEach } from 'vitest'

/** `examples/deepseek.rein.yaml`, the example set-up these tests check. */
export const EXAMPLE = fileURLToPath(new URL('../../deepseek.rein.yaml', import.meta.url))

const made: string[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A temp folder holding `files` (relative path -> content). Removed after the test. */
export async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rein-real-parts-'))
  made.push(dir)
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  return dir
}

/**
 * A `tools/execute` plugin for the tools in `names`: each call waits until `count` of them
 * are inside at once, then they finish in reverse order of arrival (the last to enter runs
 * its body first). Run one after the other, the first call would wait for ever (until its
 * signal aborts), so a completed batch proves the calls overlapped. `log` records
 * `enter <id>` and `exit <id>`.
 */
export function rendezvous(names: readonly string[], count: number) {
  const log: string[] = []
  const arrived: string[] = []
  const exited = new Map<string, Promise<void>>()
  let allIn!: () => void
  const everyone = new Promise<void>((resolve) => { allIn = resolve })
  const handler = async (exec: ToolExec, next: () => Promise<ToolExecutionResult>) => {
    if (!names.includes(exec.name)) return next()
    log.push(`enter ${exec.id}`)
    const position = arrived.push(exec.id) - 1
    let done!: () => void
    exited.set(exec.id, new Promise<void>((resolve) => { done = resolve }))
    if (arrived.length === count) allIn()
    try {
      await untilAborted(everyone, exec.signal)
      const later = arrived[position + 1]
      if (later !== undefined) await untilAborted(exited.get(later)!, exec.signal)
      return await next()
    } finally {
      log.push(`exit ${exec.id}`)
      done()
    }
  }
  return {
    log,
    plugin: { name: 'rendezvous', inject: ['tools'], apply: (ctx: Context) => { ctx.on('tools/execute', handler) } },
  }
}

/** Resolves with `promise`, or as soon as `signal` aborts. */
function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    signal.addEventListener('abort', () => resolve(), { once: true })
    void promise.then(resolve)
  })
}

/** An `Io` that collects what a command writes; Ctrl-C never comes. */
export function memoryIo(cwd: string, env: Record<string, string | undefined>) {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: { write: (chunk: string) => { stdout += chunk } },
    stderr: { write: (chunk: string) => { stderr += chunk } },
    cwd,
    env,
    isTTY: false,
    onInterrupt: () => () => {},
    exit: (code: number) => { throw new Error(`the command tried to exit with ${code}`) },
  }
  return { io, stdout: () => stdout, stderr: () => stderr }
}

/**
 * Runs `body` with HOME set to an empty folder whose .npmrc says `offline=true`: the MCP
 * server of the example (`npx -y @modelcontextprotocol/server-filesystem`) then fails at once
 * instead of depending on the network and the npm cache of this machine. The MCP SDK hands
 * children only HOME, PATH and a few more variables, so HOME is the one way in.
 */
export async function withOfflineNpm<T>(body: () => Promise<T>): Promise<T> {
  const home = await mkdtemp(join(tmpdir(), 'rein-npm-home-'))
  await writeFile(join(home, '.npmrc'), 'offline=true\nupdate-notifier=false\n')
  const saved = process.env.HOME
  process.env.HOME = home
  try {
    return await body()
  } finally {
    process.env.HOME = saved
    await rm(home, { recursive: true, force: true })
  }
}
