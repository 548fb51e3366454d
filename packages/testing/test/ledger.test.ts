import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { idempotencyKeyOf } from '@rein/kernel'
import { describe, expect, it, onTestFinished } from 'vitest'
import { ledgerTool, readLedger } from '../src/index.js'

async function ledgerPath() {
  const dir = await mkdtemp(join(tmpdir(), 'rein-ledger-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return join(dir, 'ledger.jsonl')
}

describe('ledgerTool', () => {
  it('records one line per run under the call\'s key, and reconcile answers from the ledger by that key', async () => {
    const path = await ledgerPath()
    const tool = ledgerTool(path)
    const place = { session: { id: 's' }, turn: 1 }
    const ask = (id: string) => tool.reconcile!({ arguments: {}, idempotencyKey: idempotencyKeyOf(id, place), signal: new AbortController().signal })
    expect(readLedger(path)).toEqual([])
    expect(await ask('c1')).toEqual({ ran: false })
    const ctx = new Context()
    ctx.plugin(kernel)
    await ctx.start()
    ctx.tools.register(tool)
    const result = await ctx.tools.execute({ id: 'c1', name: 'ledger', arguments: { n: 4 } }, place)
    expect(result).toMatchObject({ isError: false, value: { id: 'c1', n: 4 } })
    expect(readLedger(path)).toEqual([{ key: idempotencyKeyOf('c1', place), id: 'c1', n: 4 }])
    expect(await ask('c1')).toEqual({ ran: true, value: { id: 'c1', n: 4 } })
    expect(await ask('c2')).toEqual({ ran: false })
  })

  it('has no reconcile when told so, and calls the hooks around the effect', async () => {
    const path = await ledgerPath()
    const seen: string[] = []
    const tool = ledgerTool(path, {
      reconcile: false,
      beforeEffect: () => { seen.push(`before ${readLedger(path).length}`) },
      afterEffect: () => { seen.push(`after ${readLedger(path).length}`) },
    })
    expect(tool.reconcile).toBeUndefined()
    await tool.execute({}, { id: 'c1', idempotencyKey: 'k' } as kernel.ToolExec)
    expect(seen).toEqual(['before 0', 'after 1'])
  })
})
