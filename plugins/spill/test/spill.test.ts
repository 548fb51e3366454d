import type { Context } from 'cordis'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { utf8Length } from '@rein/retention'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import type { LocalSpillStore } from '../src/local-store.js'
import type { SpillStore } from '../src/store.js'
import type { MemorySpillStore } from '../src/memory-store.js'
import { captureWarnings } from '@rein/testing'
import { firstText, harness } from './helpers.js'

describe('spill plugin', () => {
  it('leaves a result within the cap untouched', async () => {
    const { outputs, call } = await harness({ store: 'memory', maxInlineBytes: 1000 })
    outputs.set('default', 'x'.repeat(1000))
    const result = await call('emit')
    expect(firstText(result)).toBe('x'.repeat(1000))
    expect(result.meta).toBeUndefined()
  })

  it('spills a 5 MB output whole, byte-identical, with a preview within the default cap', async () => {
    const { ctx, fork, outputs, call } = await harness({ store: 'local' })
    const big = Array.from({ length: 100_000 }, (_, i) => `line ${i} ✓ 😀 ${'.'.repeat(30)}`).join('\n')
    expect(utf8Length(big)).toBeGreaterThan(5_000_000)
    outputs.set('default', big)
    const result = await call('emit')
    const preview = firstText(result)
    expect(utf8Length(preview)).toBeLessThanOrEqual(50_000)
    expect(preview.startsWith('line 0 ✓ 😀')).toBe(true)
    expect(preview.endsWith(big.slice(-200))).toBe(true)
    const spilled = result.meta?.spilled as { locator: string, bytes: number }
    expect(spilled.bytes).toBe(Buffer.byteLength(big))
    const back = await ctx.spillStore.read(spilled.locator)
    expect(Buffer.from(back).equals(Buffer.from(big))).toBe(true)
    fork.dispose()
  })

  it('names the exact omitted byte count and where the omitted bytes start', async () => {
    const { outputs, call } = await harness({ store: 'memory', maxInlineBytes: 3000 })
    const text = 'é'.repeat(2000) + '😀'.repeat(2000)
    outputs.set('default', text)
    const result = await call('emit')
    const preview = firstText(result)
    const [, omitted, offset, total] = /\[\.\.\. (\d+) bytes omitted here, starting at byte offset (\d+) of (\d+)\./.exec(preview)!
    const [head, tail] = preview.split(/\n\n\[\.\.\. .*\.\.\.\]\n\n/)
    expect(Number(total)).toBe(12_000)
    expect(Number(offset)).toBe(utf8Length(head))
    expect(Number(omitted)).toBe(12_000 - utf8Length(head) - utf8Length(tail))
    expect(text.startsWith(head) && text.endsWith(tail)).toBe(true)
    const { locator } = result.meta!.spilled as { locator: string }
    expect(preview).toContain(`locator "${locator}": call read_spilled({ locator: "${locator}", offset, limit })`)
  })

  it('applies per-tool caps', async () => {
    const { outputs, call } = await harness({ store: 'memory', maxInlineBytes: 100_000, tools: { emit: 2000 } })
    outputs.set('default', 'y'.repeat(5000))
    const spilled = await call('emit')
    const inline = await call('other')
    expect(utf8Length(firstText(spilled))).toBeLessThanOrEqual(2000)
    expect(spilled.meta?.spilled).toMatchObject({ bytes: 5000 })
    expect(firstText(inline)).toBe('y'.repeat(5000))
    expect(inline.meta).toBeUndefined()
  })

  it('spills an error result and keeps its Error: first line and its code', async () => {
    const { ctx, outputs, call } = await harness({ store: 'memory', maxInlineBytes: 2000 })
    const message = 'build failed with 3 errors\n' + 'stderr line\n'.repeat(1000)
    outputs.set('default', message)
    const result = await call('emit', { fail: true })
    expect(result.isError && result.error.info?.code).toBe('E_BIG')
    expect(firstText(result).startsWith('Error: build failed with 3 errors\n')).toBe(true)
    expect(utf8Length(firstText(result))).toBeLessThanOrEqual(2000)
    const { locator } = result.meta!.spilled as { locator: string }
    expect(await ctx.spillStore.read(locator)).toBe(`Error: ${message}`)
  })

  it('runs outermost, so it spills what inner post-execute handlers decided on', async () => {
    const expander = (c: Context) => c.on('tools/post-execute', async (_exec, _result, next) => {
      await next()
      return { kind: 'accept', content: [{ type: 'text', text: 'z'.repeat(4000) }, { type: 'image', data: 'AA==', mimeType: 'image/png' }] }
    })
    const { ctx, outputs, call } = await harness({ store: 'memory', maxInlineBytes: 1500 }, expander)
    outputs.set('default', 'small')
    expect(ctx.tools.chain('tools/post-execute')).toEqual(['spill', 'before-spill'])
    const result = await call('emit')
    expect(result.meta?.spilled).toMatchObject({ bytes: 4000 })
    expect(result.content).toHaveLength(2)
    expect(utf8Length(firstText(result))).toBeLessThanOrEqual(1500)
    expect(result.content[1]).toEqual({ type: 'image', data: 'AA==', mimeType: 'image/png' })
  })

  it('leaves the result inline and warns once when the cap cannot hold the notice', async () => {
    const log = captureWarnings('spill')
    try {
      const { ctx, outputs, call } = await harness({ store: 'memory', maxInlineBytes: 120 })
      outputs.set('default', 'w'.repeat(500))
      const first = await call('emit')
      const second = await call('emit')
      expect(firstText(first)).toBe('w'.repeat(500))
      expect(firstText(second)).toBe('w'.repeat(500))
      expect(first.meta).toBeUndefined()
      expect((ctx.spillStore as MemorySpillStore).size).toBe(0)
      expect(log.warnings).toEqual([expect.stringMatching(/spill cap of 120 bytes for "emit" is too small/)])
    } finally {
      log.stop()
    }
  })

  it('keeps the original result and warns once when the store fails to save', async () => {
    const log = captureWarnings('spill')
    try {
      const failing: SpillStore = { save: () => Promise.reject(new Error('disk full')), read: () => Promise.reject(new Error('unused')) }
      const { outputs, call } = await harness({ store: 'external' }, (c) => { c.set('spillStore', failing) })
      outputs.set('default', 'v'.repeat(60_000))
      const first = await call('emit')
      const second = await call('other')
      expect(first.isError).toBe(false)
      expect(firstText(first)).toBe('v'.repeat(60_000))
      expect(firstText(second)).toBe('v'.repeat(60_000))
      expect(first.meta).toBeUndefined()
      expect(log.warnings).toEqual([expect.stringMatching(/spill store failed to save an output of "emit" \(disk full\)/)])
    } finally {
      log.stop()
    }
  })

  it('treats a store that answers save with the wrong shape as failing', async () => {
    const log = captureWarnings('spill')
    try {
      const odd = { save: async () => ({ where: 'somewhere' }), read: async () => '' } as unknown as SpillStore
      const { outputs, call } = await harness({ store: 'external' }, (c) => { c.set('spillStore', odd) })
      outputs.set('default', 'o'.repeat(60_000))
      const result = await call('emit')
      expect(result.isError).toBe(false)
      expect(firstText(result)).toBe('o'.repeat(60_000))
      expect(log.warnings).toEqual([expect.stringMatching(/did not return \{ locator, bytes, retrievalHint \}/)])
    } finally {
      log.stop()
    }
  })

  it('keeps the result inline when the local directory cannot be made', async () => {
    const log = captureWarnings('spill')
    try {
      const root = await mkdtemp(join(tmpdir(), 'rein-spill-block-'))
      onTestFinished(() => rm(root, { recursive: true, force: true }))
      await writeFile(join(root, 'file'), '')
      const { outputs, call } = await harness({ store: 'local', dir: join(root, 'file', 'sub') })
      outputs.set('default', 'u'.repeat(60_000))
      expect(firstText(await call('emit'))).toBe('u'.repeat(60_000))
      expect(log.warnings).toEqual([expect.stringMatching(/spill store failed to save an output of "emit"/)])
    } finally {
      log.stop()
    }
  })

  it('warns when store is external and no plugin provides one', async () => {
    const log = captureWarnings('spill')
    try {
      const { outputs, call } = await harness({ store: 'external' })
      outputs.set('default', 'v'.repeat(60_000))
      expect(firstText(await call('emit'))).toBe('v'.repeat(60_000))
      expect(log.warnings).toEqual([expect.stringMatching(/no spill store is available/)])
    } finally {
      log.stop()
    }
  })

  it('removes its hook, tool and store when disposed, and closes the store it made', async () => {
    const { ctx, fork, outputs, call } = await harness({ store: 'local' })
    outputs.set('default', 'q'.repeat(60_000))
    await call('emit')
    const store = ctx.spillStore as LocalSpillStore
    const dir = store.directory!
    expect((await stat(dir)).isDirectory()).toBe(true)
    const close = vi.spyOn(store, 'close')
    fork.dispose()
    expect(close).toHaveBeenCalledOnce()
    await close.mock.results[0].value
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(ctx.tools.chain('tools/post-execute')).toEqual([])
    expect(ctx.tools.get('read_spilled')).toBeUndefined()
    expect(ctx.get('spillStore')).toBeUndefined()
  })
})
