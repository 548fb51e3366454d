import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { describe, expect, it, onTestFinished } from 'vitest'
import * as toolsFs from '../src/index.js'
import { codeOf, workspace } from './helpers.js'

const TOOLS = ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep']

describe('the tools-fs plugin', () => {
  it('registers the six tools, each with an output schema and a render', async () => {
    const ws = await workspace()
    expect(ws.ctx.tools.specs().map((spec) => spec.name)).toEqual(TOOLS)
    for (const name of TOOLS) {
      const tool = ws.ctx.tools.get(name)!
      expect(tool.output?.schema, name).toBeTypeOf('object')
      expect(tool.output?.render, name).toBeTypeOf('function')
    }
  })

  it('marks reads parallel and idempotent, writes exclusive', async () => {
    const ws = await workspace()
    const mode = (name: string, args: object) => ws.ctx.tools.executionMode({ id: 'x', name, arguments: args })
    expect(mode('read_file', { path: 'a' })).toBe('parallel')
    expect(mode('list_dir', {})).toBe('parallel')
    expect(mode('glob', { pattern: '*' })).toBe('parallel')
    expect(mode('grep', { pattern: 'x' })).toBe('parallel')
    expect(mode('write_file', { path: 'a', content: '' })).toBe('exclusive')
    expect(mode('edit_file', { path: 'a', old_string: 'a', new_string: 'b' })).toBe('exclusive')
    expect(TOOLS.filter((name) => ws.ctx.tools.get(name)!.idempotent)).toEqual(['read_file', 'list_dir', 'glob', 'grep'])
  })

  it('refuses a config without root', () => {
    expect(() => toolsFs.Config({} as never)).toThrow(/root/)
  })

  it('fails to start with a root that does not exist, and registers nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rein-fs-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const ctx = new Context()
    ctx.plugin(kernel)
    const fork = ctx.plugin(toolsFs, { root: path.join(dir, 'missing') })
    await ctx.start()
    expect(String(fork.runtime?.error)).toMatch(/config\.root ".*missing" .* does not exist/)
    expect(ctx.tools.specs()).toEqual([])
    expect(() => toolsFs.apply(ctx, { root: '' } as toolsFs.Config)).toThrow(/config\.root is required/)
  })

  it('removes its tools when the plugin is disposed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rein-fs-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const ctx = new Context()
    ctx.plugin(kernel)
    const fork = ctx.plugin(toolsFs, { root: dir })
    await ctx.start()
    expect(ctx.tools.specs()).toHaveLength(6)
    fork.dispose()
    expect(ctx.tools.specs()).toEqual([])
  })

  it('passes exec.signal to its I/O: an aborted inner signal stops every tool with ABORTED', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'x\n'.repeat(1000) })
    // The caller's signal stays live, so a tool that ignored exec.signal would succeed.
    ws.ctx.plugin({
      name: 'aborted-inside',
      inject: ['tools'],
      apply(ctx: Context) {
        ctx.on('tools/execute', async (exec, next) => {
          const outer = exec.signal
          exec.signal = AbortSignal.abort()
          try {
            return await next()
          } finally {
            exec.signal = outer
          }
        })
      },
    })
    await ws.ctx.start()
    for (const [name, args] of [['read_file', { path: 'a.txt' }], ['grep', { pattern: 'x' }], ['glob', { pattern: '*' }],
      ['write_file', { path: 'b.txt', content: 'x' }], ['list_dir', {}], ['edit_file', { path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: true }]] as const) {
      expect(codeOf(await ws.call(name, args)), name).toBe('ABORTED')
    }
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('x\n'.repeat(1000))
    await expect(readFile(path.join(ws.root, 'b.txt'))).rejects.toThrow()
  })
})
