import { INVALID_TOOL_OUTPUT, UNKNOWN_TOOL } from '@rein/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_REQUEST_FAILED } from '../src/index.js'
import { call, code, dynamicServer, harness, text, type Harness } from './helpers.js'

let h: Harness
beforeAll(async () => {
  h = await harness({ servers: { dyn: dynamicServer() } })
}, 30_000)
afterAll(() => h?.close(), 15_000)

const listCount = async () => Number(text(await h.ctx.tools.execute(call('dyn__list_count'))))

describe('a server whose tool list changes', () => {
  it('re-lists once per change, registers the new tool and keeps the unchanged registrations', async () => {
    const before = h.ctx.tools.get('dyn__list_count')
    expect(await listCount()).toBe(1)
    const mark = h.events.length
    expect(text(await h.ctx.tools.execute(call('dyn__add_tool', { name: 'extra' })))).toBe('added extra')
    await h.until((e) => e.kind === 'tools' && e.tools.includes('dyn__extra'), mark)
    expect(await listCount()).toBe(2)
    expect(h.ctx.tools.get('dyn__list_count')).toBe(before)
    expect(text(await h.ctx.tools.execute(call('dyn__extra')))).toBe('called extra')
  })

  it('unregisters a tool the server removed', async () => {
    const mark = h.events.length
    await h.ctx.tools.execute(call('dyn__remove_tool', { name: 'extra' }))
    await h.until((e) => e.kind === 'tools' && !e.tools.includes('dyn__extra'), mark)
    expect(code(await h.ctx.tools.execute(call('dyn__extra')))).toBe(UNKNOWN_TOOL)
  })
})

describe('odd tools', () => {
  it('structured content that breaks the output schema is INVALID_TOOL_OUTPUT (validated by the kernel)', async () => {
    const result = await h.ctx.tools.execute(call('dyn__bad_structured'))
    expect(code(result)).toBe(INVALID_TOOL_OUTPUT)
    expect(text(result)).toContain('/n: must be number')
  })

  it('a JSON-RPC error from the server is MCP_REQUEST_FAILED, and the connection stays', async () => {
    const result = await h.ctx.tools.execute(call('dyn__protocol_error'))
    expect(code(result)).toBe(MCP_REQUEST_FAILED)
    expect(text(result)).toContain('this tool always refuses')
    expect(h.events.filter((e) => e.kind === 'closed')).toEqual([])
  })

  it('a tool name outside the kernel rule is sanitized, and the call reaches the original tool', async () => {
    expect(h.ctx.tools.get('dyn__weird_name')).toBeDefined()
    expect(text(await h.ctx.tools.execute(call('dyn__weird_name')))).toBe('called weird.name')
  })
})

describe('the idempotency key', () => {
  it('goes to the server as _meta["rein/idempotencyKey"] of each tools/call, the same for the same call and session', async () => {
    const keys: string[] = []
    h.ctx.on('tools/result', (exec) => { if (exec.name === 'dyn__echo_meta') keys.push(exec.idempotencyKey) })
    const metaOf = async (session: string) =>
      JSON.parse(text(await h.ctx.tools.execute({ ...call('dyn__echo_meta'), id: 'c1' }, { session: { id: session }, turn: 1 }))) as Record<string, unknown>
    const [a, again, b] = [await metaOf('s-a'), await metaOf('s-a'), await metaOf('s-b')]
    expect(a['rein/idempotencyKey']).toBe(keys[0])
    expect(again['rein/idempotencyKey']).toBe(keys[0])
    expect(b['rein/idempotencyKey']).toBe(keys[2])
    expect(keys[2]).not.toBe(keys[0])
    expect(a).toHaveProperty('progressToken')
  })
})
