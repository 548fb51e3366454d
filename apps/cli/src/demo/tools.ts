/**
 * The demo's tools: a cordis plugin registering small, real tools whose latency is an
 * argument (so the scripted model sets the pace). Every behaviour the demo shows comes from
 * the standard plugins, not from here: the tools only sleep (honouring `exec.signal`), fail
 * once when asked to (`fetch_status`), or return a lot of text (`dump_log`). State (notes,
 * which services already failed once) lives in this plugin instance, one per harness.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Context } from 'cordis'
import type { ToolDefinition, ToolExec } from '@rein/kernel'

export const name = 'demo-tools'
export const inject = ['tools']

const RECORDS: Record<string, string> = {
  alpha: 'first record: the quick brown fox',
  beta: 'second record: jumps over',
  gamma: 'third record: the lazy dog',
  delta: 'fourth record: and runs away',
}

const latency = { type: 'integer', minimum: 0, maximum: 60_000, description: 'simulated latency in ms' }
const parallel = () => true

/** An error with a code: the kernel reports a thrown error's `code` as the result's code. */
function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code })
}

async function wait(ms: number | undefined, exec: ToolExec): Promise<void> {
  if (ms) await sleep(ms, undefined, { signal: exec.signal })
}

/** Registers the demo tools on `ctx.tools`; they go away with the plugin. */
export function apply(ctx: Context): void {
  const notes = new Map<string, string>()
  const failedOnce = new Set<string>()
  const tools: ToolDefinition[] = [
    {
      name: 'lookup',
      description: 'Read one record by key (alpha, beta, gamma, delta).',
      parameters: { type: 'object', properties: { key: { type: 'string' }, latencyMs: latency }, required: ['key'], additionalProperties: false },
      isConcurrencySafe: parallel,
      idempotent: true,
      async execute(args: { key: string, latencyMs?: number }, exec) {
        await wait(args.latencyMs, exec)
        const value = RECORDS[args.key]
        if (value === undefined) throw coded(`no record "${args.key}"; keys: ${Object.keys(RECORDS).join(', ')}`, 'NOT_FOUND')
        return { key: args.key, value }
      },
    },
    {
      name: 'write_note',
      description: 'Write a note (kept in memory). Writes run alone: a barrier for the calls around them.',
      parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' }, latencyMs: latency }, required: ['path', 'text'], additionalProperties: false },
      async execute(args: { path: string, text: string, latencyMs?: number }, exec) {
        await wait(args.latencyMs, exec)
        notes.set(args.path, args.text)
        return { path: args.path, bytes: Buffer.byteLength(args.text) }
      },
    },
    {
      name: 'delete_note',
      description: 'Delete a note.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      execute(args: { path: string }) {
        return { path: args.path, deleted: notes.delete(args.path) }
      },
    },
    {
      name: 'fetch_status',
      description: 'Ask a service for its status. The first request to each service fails as briefly unavailable.',
      parameters: { type: 'object', properties: { service: { type: 'string' }, latencyMs: latency }, required: ['service'], additionalProperties: false },
      isConcurrencySafe: parallel,
      idempotent: true,
      async execute(args: { service: string, latencyMs?: number }, exec) {
        await wait(args.latencyMs, exec)
        if (!failedOnce.has(args.service)) {
          failedOnce.add(args.service)
          throw coded(`${args.service} is briefly unavailable (simulated)`, 'UNAVAILABLE')
        }
        return { service: args.service, state: 'healthy' }
      },
    },
    {
      name: 'slow_report',
      description: 'Build a report; takes as long as latencyMs says.',
      parameters: { type: 'object', properties: { topic: { type: 'string' }, latencyMs: latency }, required: ['topic'], additionalProperties: false },
      isConcurrencySafe: parallel,
      async execute(args: { topic: string, latencyMs?: number }, exec) {
        await wait(args.latencyMs, exec)
        return `report on ${args.topic}: all figures nominal`
      },
    },
    {
      name: 'dump_log',
      description: 'Return the last `lines` lines of the service log (large).',
      parameters: { type: 'object', properties: { lines: { type: 'integer', minimum: 1, maximum: 100_000 }, latencyMs: latency }, required: ['lines'], additionalProperties: false },
      isConcurrencySafe: parallel,
      idempotent: true,
      async execute(args: { lines: number, latencyMs?: number }, exec) {
        await wait(args.latencyMs, exec)
        const level = (i: number) => (i % 17 === 0 ? 'WARN' : 'INFO')
        return Array.from({ length: args.lines }, (_, i) =>
          `2030-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z ${level(i)} worker-${i % 4} handled request #${1000 + i}`).join('\n')
      },
    },
    {
      name: 'count_lines',
      description: 'Count the lines and bytes of a text.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      isConcurrencySafe: parallel,
      execute(args: { text: string }) {
        return { lines: args.text === '' ? 0 : args.text.split('\n').length, bytes: Buffer.byteLength(args.text) }
      },
    },
  ]
  for (const tool of tools) ctx.tools.register(tool)
}
