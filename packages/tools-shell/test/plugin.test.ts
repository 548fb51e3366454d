import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { describe, expect, it, onTestFinished } from 'vitest'
import * as toolsShell from '../src/index.js'
import { shell } from './helpers.js'

async function tempDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'rein-shell-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe('the tools-shell plugin', () => {
  it('registers bash as exclusive, not idempotent, with an output schema and a render', async () => {
    const sh = await shell()
    expect(sh.ctx.tools.specs().map((spec) => spec.name)).toEqual(['bash'])
    const tool = sh.ctx.tools.get('bash')!
    expect(tool.output?.schema).toBeTypeOf('object')
    expect(tool.output?.render).toBeTypeOf('function')
    expect(tool.idempotent).toBeFalsy()
    expect(sh.ctx.tools.executionMode({ id: 'x', name: 'bash', arguments: { command: 'ls' } })).toBe('exclusive')
  })

  it('checks its config: root required, env names well-formed, defaults filled in', () => {
    expect(() => toolsShell.Config({} as never)).toThrow(/root/)
    expect(() => toolsShell.Config({ root: '.', env: ['PATH', 'NOT-A-NAME'] })).toThrow(/env/)
    expect(toolsShell.Config({ root: '.' })).toEqual({
      root: '.', env: ['PATH', 'HOME', 'LANG'], maxOutputBytes: 30_000, killGraceMs: 500, shell: 'bash',
    })
  })

  it('fails to start with a missing root or a shell that does not exist, and registers nothing', async () => {
    const dir = await tempDir()
    const ctx = new Context()
    ctx.plugin(kernel)
    const noRoot = ctx.plugin(toolsShell, { root: path.join(dir, 'missing') })
    await ctx.start()
    expect(String(noRoot.runtime?.error)).toMatch(/config\.root ".*missing" .* does not exist/)
    noRoot.dispose()
    const noShell = ctx.plugin(toolsShell, { root: dir, shell: 'no-such-shell-here' })
    await ctx.start()
    expect(String(noShell.runtime?.error)).toMatch(/shell "no-such-shell-here" was not found on PATH/)
    expect(ctx.tools.specs()).toEqual([])
  })

  it('removes bash when the plugin is disposed', async () => {
    const dir = await tempDir()
    const ctx = new Context()
    ctx.plugin(kernel)
    const fork = ctx.plugin(toolsShell, { root: dir })
    await ctx.start()
    expect(ctx.tools.get('bash')).toBeDefined()
    fork.dispose()
    expect(ctx.tools.get('bash')).toBeUndefined()
  })

  it('reports output as progress, so a timeout plugin can treat it as a heartbeat', async () => {
    const sh = await shell()
    const reports: unknown[] = []
    await sh.call({ command: 'echo hi' }, { onProgress: (info) => reports.push(info) })
    expect(reports).toEqual([{ message: 'output' }])
  })
})
