/**
 * Reconcile after a real crash (DESIGN.md §7.3), over a JSONL session: a child process running
 * three `ledger` calls is killed with SIGKILL while c2 is in flight, either after its effect
 * (in the ledger, result not logged) or before it (`tool/call` logged, effect not done). The
 * resume in this process asks `reconcile`: every effect is in the ledger exactly once, the
 * committed one is `meta.reconciled`, the re-run one ran under the key the child had.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TOOL_NOT_STARTED } from '@rein/kernel'
import { ledgerTool, readLedger, validateTranscript } from '@rein/testing'
import { jsonlSession } from '../src/index.js'
import { kernelContext, killChildAt, scriptedAgent, tempDir } from './helpers.js'

const child = fileURLToPath(new URL('./fixtures/reconcile-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/index.bundle.js', import.meta.url))

/** Resumes the session in this process with the ledger tool (its reconcile on); the results by call id, and the ledger. */
async function resume(dir: string) {
  const ctx = await kernelContext()
  ctx.tools.register(ledgerTool(join(dir, 'ledger.jsonl')))
  const session = jsonlSession(join(dir, 'session.jsonl'))
  const { agent, provider } = scriptedAgent(ctx, [], { session })
  const outcome = await agent.run()
  await session.close?.()
  const entries = await jsonlSession(join(dir, 'session.jsonl')).load()
  const results = new Map(entries.flatMap((e) => e.type === 'tool/result' ? [[e.message.toolCallId, e] as const] : []))
  const keys = new Map((await readFile(join(dir, 'keys.log'), 'utf8')).split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]))
  return { outcome, request: provider.requests.at(-1)!.messages, results, ledger: readLedger(join(dir, 'ledger.jsonl')), keys }
}

describe('reconcile after a process killed with SIGKILL (JSONL session)', () => {
  it.each([
    ['after:c2', 'the effect done, its result not logged: reconcile commits it'],
    ['before:c2', 'its tool/call logged, the effect not done: reconcile runs it once'],
  ])('killed at %s (%s); every effect is in the ledger exactly once', async (point) => {
    expect(existsSync(built), 'build first: npx -y pnpm@10 build').toBe(true)
    const dir = await tempDir('rein-reconcile-')
    await killChildAt(child, [dir, point], point)
    const before = readLedger(join(dir, 'ledger.jsonl'))
    expect(before.map((l) => l.id)).toEqual(point === 'after:c2' ? ['c1', 'c2'] : ['c1'])
    const { outcome, request, results, ledger, keys } = await resume(dir)
    expect(outcome.kind).toBe('completed')
    expect(validateTranscript(request)).toEqual([])
    expect(ledger.map((l) => l.id)).toEqual(['c1', 'c2'])
    expect(new Set(ledger.map((l) => l.key)).size).toBe(2)
    expect(ledger.find((l) => l.id === 'c2')!.key).toBe(keys.get('c2'))
    expect(results.get('c1')).toMatchObject({ message: { isError: false } })
    expect(results.get('c1')!.meta).toBeUndefined()
    const c2 = results.get('c2')!
    expect(c2.message).toMatchObject({ isError: false, content: [{ type: 'text', text: '{"id":"c2","n":2}' }] })
    if (point === 'after:c2') expect(c2.meta).toEqual({ reconciled: true })
    else expect(c2.meta).toBeUndefined()
    expect(results.get('c3')!.code).toBe(TOOL_NOT_STARTED)
  })
})
