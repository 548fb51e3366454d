import { describe, expect, it } from 'vitest'
import { alive, call, code, dynamicServer, harness, text } from './helpers.js'

describe('the mcp plugin', () => {
  it('warns about a server that cannot start (with its stderr) and keeps the others', async () => {
    const h = await harness({
      servers: {
        dyn: dynamicServer(),
        broken: { command: process.execPath, args: ['-e', 'process.stderr.write("boom: missing setting\\n"); process.exit(3)'] },
        missing: { command: '/nonexistent/rein-mcp-server' },
      },
    })
    try {
      const failed = Object.fromEntries(h.events.flatMap((e) => e.kind === 'failed' ? [[e.server, e.error]] : []))
      expect(Object.keys(failed).sort()).toEqual(['broken', 'missing'])
      expect(failed.broken).toContain('boom: missing setting')
      expect(failed.missing).toContain('ENOENT')
      expect(h.warnings.filter((w) => w.includes('could not be started'))).toHaveLength(2)
      expect(text(await h.ctx.tools.execute(call('dyn__list_count')))).toBe('1')
    } finally {
      await h.close()
    }
  })

  it('restarts a dead server once for calls that arrive together', async () => {
    const h = await harness({ servers: { dyn: dynamicServer() } })
    try {
      const pid = h.pid('dyn')
      const mark = h.events.length
      process.kill(pid, 'SIGKILL')
      await h.until((e) => e.kind === 'closed', mark)
      const results = await Promise.all([1, 2, 3].map(() => h.ctx.tools.execute(call('dyn__list_count'))))
      expect(results.map(code)).toEqual(['OK', 'OK', 'OK'])
      expect(h.events.slice(mark).filter((e) => e.kind === 'connected')).toHaveLength(1)
      expect(h.pid('dyn')).not.toBe(pid)
    } finally {
      await h.close()
    }
  })

  it('disposing the plugin removes its tools and stops every child process', async () => {
    const h = await harness({ servers: { one: dynamicServer(), two: dynamicServer() } })
    const pids = [h.pid('one'), h.pid('two')]
    expect(pids.every(alive)).toBe(true)
    expect(h.ctx.tools.get('two__list_count')).toBeDefined()
    await h.close()
    expect(pids.some(alive)).toBe(false)
    expect(h.ctx.tools.specs()).toEqual([])
  })
})
