/**
 * What a command loads decides how fast it starts (apps/cli/bench/startup.mjs measures it).
 * These tests check the modules themselves, never the time: a spawned `rein` records every
 * module it loads (test/fixtures/module-probe.mjs), and the list must leave out what the
 * command does not use. Spawned tests run bin/rein.mjs, which imports dist: build first.
 */
import { spawn } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { socketPath } from '../src/hook/resident.js'
import { BIN, CLI_ROOT, FIXTURES, project, requireBuild } from './helpers.js'

/** Runs `rein <argv>` from the CLI folder and resolves with the modules it loaded (URLs and paths). */
async function modulesLoadedBy(argv: string[], stdin?: string): Promise<string[]> {
  requireBuild()
  const file = join(await project(), 'modules.txt')
  const child = spawn(process.execPath, ['--import', join(FIXTURES, 'module-probe.mjs'), BIN, ...argv], {
    cwd: CLI_ROOT, env: { ...process.env, NO_COLOR: '1', REIN_MODULE_PROBE: file }, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
  })
  child.stdin?.end(stdin)
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  expect(code, stderr).toBe(0)
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean)
}

const matching = (modules: readonly string[], pattern: RegExp) => modules.filter((m) => pattern.test(m))

describe('modules loaded at start-up', () => {
  it('rein chains loads the harness, but not ajv, the worker pool, or the commands that run a model', async () => {
    const modules = await modulesLoadedBy(['chains', '-c', 'demo/rein.yaml'])
    // The probe sees what chains needs, so an empty list cannot pass for a lean one.
    expect(matching(modules, /\/kernel\/dist\/src\/cordis\.bundle\.js$/)).not.toEqual([]) // cordis, as rein bundles it
    expect(matching(modules, /\/yaml\/dist\//)).not.toEqual([])
    expect(matching(modules, /\/plugins\/retry\//)).not.toEqual([])
    // Schemas are compiled on first use, and chains validates nothing.
    expect(matching(modules, /\/(ajv|ajv-formats)\//)).toEqual([])
    // Only an `isolate: true` tool needs worker threads.
    expect(matching(modules, /\/(tinypool|isolate)\//)).toEqual([])
    // chains builds no agent (`inspectOnly`), so the agent loop is not imported.
    expect(matching(modules, /\/packages\/agent\//)).toEqual([])
    // The other commands' modules: the live view, the trace renderer, the starter, the run loop.
    expect(matching(modules, /\/apps\/cli\/dist\/src\/(live-run|progress\/(?!style)|trace\/|init\/|approval\/|commands\/\w+-action)/)).toEqual([])
  })

  it('rein check loads the file\'s provider and tools, but not the agent loop', async () => {
    const dir = await project({
      'rein.yaml': `provider: { use: ${join(FIXTURES, 'slow-provider.mjs')} }\ntools:\n  - use: ${join(FIXTURES, 'slow-tools.mjs')}\n`,
    })
    const modules = await modulesLoadedBy(['check', '-c', join(dir, 'rein.yaml')])
    // With a provider, a harness that may build an agent imports @rein/agent as it loads; check says it will not.
    expect(matching(modules, /\/fixtures\/(slow-provider|slow-tools)\.mjs$/)).toHaveLength(2)
    expect(matching(modules, /\/packages\/agent\//)).toEqual([])
  })

  it('rein --help loads no runtime: no loader, kernel, cordis or yaml', async () => {
    const modules = await modulesLoadedBy(['--help'])
    expect(matching(modules, /\/apps\/cli\/dist\/src\/main\.js$/)).not.toEqual([])
    expect(matching(modules, /\/(cordis|yaml|ajv)\/|\/packages\/(kernel|loader\/dist\/src\/index|agent)\//)).toEqual([])
  })

  it('rein hook claude-code --resident, answered by the resident process, loads no runtime and no other command', { timeout: 120_000 }, async () => {
    const dir = await project({ 'rein.yaml': "plugins:\n  - use: '@rein/plugin-permission-guard'\n    config: { default: allow }\n" })
    const config = join(dir, 'rein.yaml')
    const call = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, 'a') }, tool_use_id: 'toolu_1', cwd: dir })
    const argv = ['hook', 'claude-code', '--resident', '-c', config]
    try {
      // The first call is answered in its own process and starts the resident one.
      await modulesLoadedBy(argv, call)
      const socket = socketPath(config, realpathSync(dir))!
      while (!existsSync(socket)) await new Promise((resolve) => setTimeout(resolve, 50))
      const modules = await modulesLoadedBy(argv, call)
      // The probe sees the hook command and the resident client, so an empty list cannot pass.
      expect(matching(modules, /\/apps\/cli\/dist\/src\/hook\/resident\.js$/)).not.toEqual([])
      expect(matching(modules, /\/(cordis|yaml|ajv)\/|\/packages\/|\/plugins\//)).toEqual([])
      expect(matching(modules, /\/apps\/cli\/dist\/src\/(main|commands\/(?!hook)\w+)\.js$/)).toEqual([])
    } finally {
      await rm(config, { force: true }) // the resident process exits once its config file is gone
    }
  })
})

