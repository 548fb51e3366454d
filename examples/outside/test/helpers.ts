/**
 * Helpers for checks that look at the workspace as an outsider would: its publishable
 * packages, a child process run with an environment free of the workspace's package-manager
 * settings (so npm behaves as on a stranger's machine), and sizes and copies on disk.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../../..', import.meta.url))

/** A package that is published: its folder and manifest. */
export interface Publishable {
  dir: string
  manifest: Manifest
}

export interface Manifest {
  name: string
  version: string
  private?: boolean
  type?: string
  exports?: unknown
  files?: string[]
  engines?: { node?: string }
  bin?: Record<string, string>
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  publishConfig?: { access?: string }
}

/** Every package under packages/, plugins/ and apps/ that is not private. */
export function publishable(): Publishable[] {
  return ['packages', 'plugins', 'apps'].flatMap((group) => {
    const base = join(REPO, group)
    return existsSync(base) ? readdirSync(base).sort().map((name) => join(base, name)) : []
  }).filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }))
    .filter(({ manifest }) => !manifest.private)
}

/** What a finished child process printed. */
export interface Ran {
  code: number
  stdout: string
  stderr: string
  ms: number
}

/**
 * Runs `command` in `cwd` through the shell, without the npm_/pnpm_ variables a workspace
 * script inherits and without a model key, colour off. Resolves however it exits.
 */
export function run(command: string, cwd: string): Promise<Ran> {
  const env: Record<string, string> = { NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|pnpm_|VITEST|DEEPSEEK_API_KEY$|NODE_OPTIONS$)/i.test(key)) env[key] ??= value
  }
  // No tool of this workspace may be found by accident (pnpm puts its .bin folders on PATH).
  env.PATH = (env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(REPO)).join(delimiter)
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: performance.now() - started }))
  })
}

/** Total bytes of the files under `dir`. */
export function sizeOf(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += sizeOf(path)
    else if (entry.isFile()) total += statSync(path).size
  }
  return total
}

/** Folders of the installed package `name` anywhere under `nodeModules` (one per copy). */
export function copiesOf(nodeModules: string, name: string): string[] {
  const found: string[] = []
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.bin') continue
      const path = join(dir, entry.name)
      if (entry.name.startsWith('@')) {
        visit(path)
        continue
      }
      const manifest = join(path, 'package.json')
      if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) found.push(path)
      if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'))
    }
  }
  visit(nodeModules)
  return found
}

/** `1.2 MB` */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`
}
