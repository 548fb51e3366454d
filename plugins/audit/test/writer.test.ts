import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as audit from '../src/index.js'
import { captureWarnings } from '@rein/testing'
import { kernelContext, readLines, registerTools, tempDir } from './helpers.js'

const stops: (() => void)[] = []
afterEach(() => {
  stops.splice(0).forEach((stop) => stop())
  vi.restoreAllMocks()
})

describe('the audit file', () => {
  it('reports a write failure once and never fails a call', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'blocker'), 'a file, not a directory')
    const ctx = await kernelContext()
    registerTools(ctx)
    const log = captureWarnings('audit', ctx)
    stops.push(log.stop)
    ctx.plugin(audit, { file: join(dir, 'blocker', 'audit.jsonl') })
    await ctx.start()
    for (const id of ['a', 'b', 'c']) {
      const result = await ctx.tools.execute({ id, name: 'echo', arguments: { text: id } })
      expect(result).toMatchObject({ isError: false, value: id })
    }
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toContain(`cannot append to the audit file ${join(dir, 'blocker', 'audit.jsonl')}`)
    expect(log.warnings[0]).toContain('reported once')
  })

  it('resolves a relative path from the current directory and creates missing folders', async () => {
    const dir = await tempDir()
    vi.spyOn(process, 'cwd').mockReturnValue(dir)
    const ctx = await kernelContext()
    registerTools(ctx)
    ctx.plugin(audit, { file: 'logs/today/audit.jsonl' })
    await ctx.start()
    await ctx.tools.execute({ id: 'a', name: 'echo', arguments: {} })
    expect(await readLines(join(dir, 'logs', 'today', 'audit.jsonl'))).toMatchObject([{ id: 'a' }])
  })

  it('appends to an existing file and holds every line by the time the plugin is disposed', async () => {
    const dir = await tempDir()
    const file = join(dir, 'audit.jsonl')
    await mkdir(dir, { recursive: true })
    await writeFile(file, '{"id":"earlier"}\n')
    const ctx = await kernelContext()
    registerTools(ctx)
    const fork = ctx.plugin(audit, { file })
    await ctx.start()
    await Promise.all(['a', 'b', 'c'].map((id) => ctx.tools.execute({ id, name: 'echo', arguments: {} })))
    fork.dispose()
    expect((await readLines(file)).map((l) => l.id)).toEqual(['earlier', 'a', 'b', 'c'])
    await ctx.tools.execute({ id: 'after', name: 'echo', arguments: {} })
    expect(await readLines(file)).toHaveLength(4)
    expect(ctx.tools.chain('tools/result')).toEqual([])
  })
})
