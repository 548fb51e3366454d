/**
 * `examples/deepseek.rein.yaml` means what its comments say: the plugins nest in the
 * recommended order, every `.` is the examples folder, and the permission rules ask before
 * a shell command and refuse `rm -rf`, `git push` and writes through the MCP server. Nothing
 * is executed (the audit file stays unwritten); npm is kept offline so the MCP server does
 * not depend on the network.
 */
import { dirname } from 'node:path'
import { describeChains, loadHarness, type Harness } from '@rein/loader'
import { compilePolicy, type PermissionGuardConfig } from '@rein/plugin-permission-guard'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLE, withOfflineNpm } from './helpers.js'

let harness: Harness
beforeAll(async () => {
  harness = await withOfflineNpm(() => loadHarness(EXAMPLE, { env: { ...process.env, DEEPSEEK_API_KEY: 'sk-not-a-real-key' } }))
})
afterAll(() => harness?.dispose())

const entry = (use: string) => [...harness.config.plugins, ...harness.config.tools].find((e) => e.use === use)!

describe('examples/deepseek.rein.yaml', () => {
  it('nests the six standard plugins in the recommended order', () => {
    const chains = Object.fromEntries(describeChains(harness.ctx).map((view) => [view.hook, view.plugins]))
    expect(chains).toMatchObject({
      'tools/pre-execute': ['permission-guard'],
      guards: ['permission-guard'],
      'tools/execute': ['cache', 'retry', 'timeout-policy'],
      'tools/post-execute': ['spill'],
      'tools/result': ['audit'],
    })
  })

  it('roots the tools and the MCP server at the folder of the file', () => {
    const folder = dirname(EXAMPLE)
    expect(entry('@rein/tools-fs').config).toEqual({ root: folder })
    expect(entry('@rein/tools-shell').config).toMatchObject({ root: folder })
    expect(entry('@rein/mcp').config).toEqual({
      servers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', folder] } },
    })
    expect(harness.config.session).toBe(`${folder}/.rein/deepseek-session.jsonl`)
  })

  it('asks before shell commands and refuses the destructive ones', () => {
    const policy = compilePolicy(entry('@rein/plugin-permission-guard').config as PermissionGuardConfig)
    const action = (name: string, args: Record<string, unknown> = {}) => policy(name, args).action
    expect(action('read_file', { path: 'README.md' })).toBe('allow')
    expect(action('edit_file', { path: 'README.md' })).toBe('allow')
    expect(action('bash', { command: 'ls -la' })).toBe('ask')
    expect(action('bash', { command: 'rm -rf /' })).toBe('deny')
    expect(action('bash', { command: 'cd build && rm -fr .' })).toBe('deny')
    expect(action('bash', { command: 'git push origin main' })).toBe('deny')
    expect(action('fs__read_text_file', { path: 'a' })).toBe('allow')
    expect(action('fs__write_file', { path: 'a' })).toBe('deny')
    expect(action('fs__move_file')).toBe('deny')
  })
})
