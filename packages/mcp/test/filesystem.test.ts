import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_TOOL_ERROR } from '../src/index.js'
import { call, code, harness, referenceServer, text, type Harness } from './helpers.js'

let h: Harness
let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'rein-mcp-fs-')))
  await writeFile(join(dir, 'notes.txt'), 'first line\nsecond line\n')
  h = await harness({ servers: { fs: referenceServer('filesystem', [dir]) } })
}, 30_000)
afterAll(async () => {
  await h?.close()
  await rm(dir, { recursive: true, force: true })
}, 15_000)

describe('the filesystem server over stdio', () => {
  it('reads a file in the allowed folder; the structured value fits its output schema', async () => {
    const result = await h.ctx.tools.execute(call('fs__read_text_file', { path: join(dir, 'notes.txt') }))
    expect(result).toMatchObject({ isError: false, value: { content: 'first line\nsecond line\n' } })
    expect(h.ctx.tools.get('fs__read_text_file')!.output?.schema).toMatchObject({
      type: 'object', properties: { content: { type: 'string' } } })
  })

  it('writes through write_file, which is exclusive (not read-only)', async () => {
    expect(h.ctx.tools.executionMode(call('fs__write_file', { path: join(dir, 'x'), content: '' }))).toBe('exclusive')
    expect(h.ctx.tools.executionMode(call('fs__read_text_file', { path: join(dir, 'x') }))).toBe('parallel')
    const result = await h.ctx.tools.execute(call('fs__write_file', { path: join(dir, 'new.txt'), content: 'made by mcp' }))
    expect(code(result)).toBe('OK')
    expect(await readFile(join(dir, 'new.txt'), 'utf8')).toBe('made by mcp')
  })

  it('a path outside the allowed folder is the server\'s own isError: MCP_TOOL_ERROR with its text', async () => {
    const result = await h.ctx.tools.execute(call('fs__read_text_file', { path: '/etc/hostname' }))
    expect(code(result)).toBe(MCP_TOOL_ERROR)
    expect(text(result)).toMatch(/^Error: Access denied - path outside allowed directories/)
  })
})
