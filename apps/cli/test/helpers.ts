/**
 * Test helpers: an in-process Io that captures output, temp project folders with real files
 * (removed after each test), the CLI's paths, and a child-process runner for `bin/rein.mjs`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'
import type { Io } from '../src/io.js'
import { main } from '../src/main.js'

/** The CLI package folder, its bin and its test fixtures. */
export const CLI_ROOT = fileURLToPath(new URL('..', import.meta.url))
export const BIN = join(CLI_ROOT, 'bin', 'rein.mjs')
export const FIXTURES = join(CLI_ROOT, 'test', 'fixtures')

const made: string[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A temp folder holding `files` (path -> content), removed after the test. */
export async function project(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rein-cli-'))
  made.push(dir)
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  return dir
}

/** What an in-process command printed and returned. */
export interface Captured {
  code: number
  stdout: string
  stderr: string
}

/** Runs `rein <argv>` in process, in `cwd`, with plain (non-TTY) output. */
export async function rein(argv: string[], cwd = CLI_ROOT, env: Record<string, string | undefined> = {}): Promise<Captured> {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: { write: (s: string) => { stdout += s } },
    stderr: { write: (s: string) => { stderr += s } },
    cwd,
    env,
    isTTY: false,
    onInterrupt: () => () => {},
    exit: (code) => { throw new Error(`exit(${code}) called in process`) },
  }
  const code = await main(argv, io)
  return { code, stdout, stderr }
}

/** Fails clearly when the CLI was not built (spawned tests run bin/rein.mjs, which imports dist). */
export function requireBuild(): void {
  if (!existsSync(join(CLI_ROOT, 'dist', 'src', 'main.js'))) {
    throw new Error('apps/cli is not built: run npx -y pnpm@10 build first (bin/rein.mjs imports dist/src/main.js)')
  }
}

/** A spawned `rein`, with its output collected as it arrives. */
export interface Spawned {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves when stdout matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void>
  /** Resolves with the exit code (or 128 + signal number when killed by a signal). */
  exited: Promise<number>
}

/** Spawns `node bin/rein.mjs <argv>` in `cwd`. */
export function spawnRein(argv: string[], cwd: string): Spawned {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const waiters: { pattern: RegExp, resolve: () => void }[] = []
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const w of waiters.splice(0)) (w.pattern.test(out) ? w.resolve() : waiters.push(w))
  })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { err += chunk })
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 128)))
  })
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor: (pattern) => new Promise<void>((resolve, reject) => {
      if (pattern.test(out)) return resolve()
      waiters.push({ pattern, resolve })
      exited.then((code) => reject(new Error(`rein exited (${code}) before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`)), reject)
    }),
    exited,
  }
}

/** The reason the approval fixtures' policy gives when it asks about a shell command. */
export const APPROVAL_REASON = 'shell commands need a person'

/**
 * A rein.yaml whose model asks for two shell commands (`ls`, `pwd`) that the policy asks about:
 * `park` adds `agent: { approvals: park }`, `session` the session file (null: none).
 */
export function approvalConfig({ park = true, session = './session.jsonl' }: { park?: boolean, session?: string | null } = {}): string {
  return `
provider: { use: ${join(FIXTURES, 'approval-provider.mjs')}, config: { commands: [ls, pwd] } }
plugins:
  - use: '@rein/plugin-permission-guard'
    config: { rules: [{ tool: shell, action: ask, reason: ${APPROVAL_REASON} }] }
tools:
  - use: ${join(FIXTURES, 'approval-tools.mjs')}
${park ? 'agent: { approvals: park }' : ''}
${session === null ? '' : `session: ${session}`}
`
}
