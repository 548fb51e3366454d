/**
 * Reconcile after a real crash (DESIGN.md §7.3), over a PostgreSQL session on a real server: a
 * child process running three `ledger` calls is killed with SIGKILL while c2 is in flight, after
 * its effect (in the ledger, result not logged) or before it (`tool/call` logged, effect not
 * done). The resume in this process, once the dead writer's connection is gone, asks
 * `reconcile`: every effect is in the ledger exactly once, the committed one is
 * `meta.reconciled`, the re-run one ran under the key the child had.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from 'cordis'
import { expect, it, onTestFinished } from 'vitest'
import * as kernel from '@rein/kernel'
import { TOOL_NOT_STARTED } from '@rein/kernel'
import { createAgent, type SessionEntry } from '@rein/agent'
import { ledgerTool, readLedger, scripted, validateTranscript } from '@rein/testing'
import { postgresSession } from '../src/index.js'
import { describeWithPostgres, newId, writerPid } from './helpers.js'

const child = fileURLToPath(new URL('./fixtures/reconcile-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/index.bundle.js', import.meta.url))

/** Runs the child until it prints `frozen <point>`, then kills it with SIGKILL. */
async function killAt(args: string[], point: string): Promise<void> {
  const proc = spawn(process.execPath, [child, ...args, point], { stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL')
      await once(proc, 'exit')
    }
  })
  let out = ''
  proc.stderr.on('data', (chunk) => { out += chunk })
  proc.stdout.on('data', (chunk) => {
    out += chunk
    if (out.includes(`frozen ${point}\n`)) proc.kill('SIGKILL')
  })
  const [code, signal] = await once(proc, 'exit') as [number | null, string | null]
  if (signal !== 'SIGKILL') throw new Error(`the child never reached ${point} (exit ${code}): ${out}`)
}

describeWithPostgres('reconcile after a process killed with SIGKILL (PostgreSQL session)', (db) => {
  it.each([
    ['after:c2', 'the effect done, its result not logged: reconcile commits it'],
    ['before:c2', 'its tool/call logged, the effect not done: reconcile runs it once'],
  ])('killed at %s (%s); every effect is in the ledger exactly once', async (point) => {
    expect(existsSync(built), 'build first: npx -y pnpm@10 build').toBe(true)
    const dir = await mkdtemp(join(tmpdir(), 'rein-pg-reconcile-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const id = newId()
    const url = db().server.url
    await killAt([url, id, dir], point)
    // The dead writer's backend may still hold the session: end it, as PostgreSQL soon would.
    const pid = await writerPid(db().admin, id)
    if (pid !== undefined) await db().admin.query('SELECT pg_terminate_backend($1, 5000)', [pid])
    expect(readLedger(join(dir, 'ledger.jsonl')).map((l) => l.id)).toEqual(point === 'after:c2' ? ['c1', 'c2'] : ['c1'])

    const ctx = new Context()
    ctx.plugin(kernel)
    await ctx.start()
    ctx.tools.register(ledgerTool(join(dir, 'ledger.jsonl')))
    const session = postgresSession({ connectionString: url, id })
    const provider = scripted([])
    const outcome = await createAgent(ctx, { provider, session }).run()
    const entries: SessionEntry[] = await session.load()
    await session.close?.()

    expect(outcome.kind).toBe('completed')
    expect(validateTranscript(provider.requests.at(-1)!.messages)).toEqual([])
    const ledger = readLedger(join(dir, 'ledger.jsonl'))
    expect(ledger.map((l) => l.id)).toEqual(['c1', 'c2'])
    expect(new Set(ledger.map((l) => l.key)).size).toBe(2)
    const keys = new Map((await readFile(join(dir, 'keys.log'), 'utf8')).split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]))
    expect(ledger.find((l) => l.id === 'c2')!.key).toBe(keys.get('c2'))
    const results = new Map(entries.flatMap((e) => e.type === 'tool/result' ? [[e.message.toolCallId, e] as const] : []))
    expect(results.get('c1')).toMatchObject({ message: { isError: false } })
    const c2 = results.get('c2')!
    expect(c2.message).toMatchObject({ isError: false, content: [{ type: 'text', text: '{"id":"c2","n":2}' }] })
    if (point === 'after:c2') expect(c2.meta).toEqual({ reconciled: true })
    else expect(c2.meta).toBeUndefined()
    expect(results.get('c3')!.code).toBe(TOOL_NOT_STARTED)
  }, 60_000)
})
