import { existsSync } from 'node:fs'
import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { defineTool, TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN } from '@rein/kernel'
import { validateTranscript } from '@rein/testing'
import { jsonlSession } from '../src/index.js'
import { kernelContext, killChildAt, scriptedAgent, tempDir } from './helpers.js'

const child = fileURLToPath(new URL('./fixtures/kill-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/index.bundle.js', import.meta.url))

/** Runs the child until it prints `frozen <point>`, then kills it with SIGKILL. */
const killAt = (dir: string, point: string) => killChildAt(child, [dir, point], point)

/** Resumes the session in this process with the same tool, and reports what happened. */
async function resume(dir: string) {
  const ctx = await kernelContext()
  ctx.tools.register(defineTool({
    name: 'work', description: 'records that it ran', parameters: { type: 'object' },
    execute: async (_args, exec) => { await appendFile(join(dir, 'ran.log'), `${exec.id}\n`); return { id: exec.id } },
  }))
  // The key every call of the resume carries, repaired ones included (their results reach the observers too).
  const keys = new Map<string, string>()
  ctx.on('tools/result', (exec) => { keys.set(exec.id, exec.idempotencyKey) })
  const session = jsonlSession(join(dir, 'session.jsonl'))
  const { agent, provider } = scriptedAgent(ctx, [], { session })
  const outcome = await agent.run()
  await session.close?.()
  const reread = jsonlSession(join(dir, 'session.jsonl'))
  const entries = await reread.load()
  await reread.close?.()
  const codes = new Map(entries.flatMap((e) => e.type === 'tool/result' ? [[e.message.toolCallId, e.code ?? 'ok'] as const] : []))
  const ran = existsSync(join(dir, 'ran.log')) ? (await readFile(join(dir, 'ran.log'), 'utf8')).split('\n').filter(Boolean) : []
  return { outcome, request: provider.requests.at(-1)!.messages, codes, ran, keys }
}

/** Each kill point, and the call that is in flight there. */
const points: [string, string | undefined][] = [
  ['body:c2', 'c2'],
  ['after-body:c2', 'c2'],
  ['result:c2', 'c2'],
  ['committed:c2', 'c3'],
  ['tool-call:c3', 'c3'],
  ['after-body:c3', 'c3'],
  ['turn-end', undefined],
  // Asked before the sync of the last result (c4) and the turn end: c4 ran, its result is lost, never rerun.
  ['model-request:2', 'c4'],
]

describe('a process killed with SIGKILL mid-batch', () => {
  it.each(points)('resumes from kill point %s with a valid transcript; nothing runs twice', async (point, inFlight) => {
    expect(existsSync(built), 'build @rein/agent first: npx -y pnpm@10 build').toBe(true)
    const dir = await tempDir('rein-kill-')
    await killAt(dir, point)
    const { outcome, request, codes, ran, keys } = await resume(dir)
    expect(outcome.kind).toBe('completed')
    expect(validateTranscript(request)).toEqual([])
    expect([...codes.keys()]).toEqual(['c1', 'c2', 'c3', 'c4'])
    expect(new Set(ran).size).toBe(ran.length)
    for (const [id, code] of codes) {
      if (code === 'ok') expect(ran.filter((r) => r === id)).toEqual([id])
      if (code === TOOL_NOT_STARTED) expect(ran).not.toContain(id)
      expect(['ok', TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN]).toContain(code)
    }
    if (inFlight) expect(codes.get(inFlight)).toBe(TOOL_OUTCOME_UNKNOWN)
    // The call in flight at the kill has the same idempotency key in the resuming process.
    const childKeys = new Map((await readFile(join(dir, 'keys.log'), 'utf8')).split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]))
    if (inFlight && childKeys.has(inFlight)) expect(keys.get(inFlight)).toBe(childKeys.get(inFlight))
    if (point.startsWith('body:')) expect(childKeys.has(inFlight!)).toBe(true)
    if (!inFlight) expect([...codes.values()]).toEqual(['ok', 'ok', 'ok', 'ok'])
    // Every call ran once, in the child; the resume ran none again.
    if (point === 'model-request:2') expect(ran).toEqual(['c1', 'c2', 'c3', 'c4'])
  })
})
