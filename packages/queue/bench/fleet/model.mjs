/**
 * The fleet bench's stand-in model. It decides from the transcript alone, so any worker
 * continues any session:
 * - task `park:<label>`: one `work` call marked `risky` (the policy asks; the worker parks it),
 *   then, given its result, the answer `<label> done`;
 * - task `work:<calls>:<ms>:<modelMs>:<label>`: one `work` call of `ms` per turn until `calls`
 *   succeeded, then the answer `<label> done`; each step first waits `modelMs` (a model's latency).
 */
import { setTimeout as sleep } from 'node:timers/promises'

/** @returns {{ generate(request: { messages: Array<{ role: string, content: any, isError?: boolean }> }): Promise<object> }} */
export function createProvider() {
  return {
    async generate({ messages }) {
      const task = String(messages.find((m) => m.role === 'user')?.content)
      const done = messages.filter((m) => m.role === 'tool' && !m.isError).length
      const [kind, ...rest] = task.split(':')
      const park = kind === 'park'
      const label = park ? rest.join(':') : rest.slice(3).join(':')
      const calls = park ? 1 : Number(rest[0])
      const ms = park ? 0 : Number(rest[1])
      const modelMs = park ? 0 : Number(rest[2])
      if (modelMs > 0) await sleep(modelMs)
      if (done >= calls) return { role: 'assistant', content: `${label} done` }
      const step = done + 1
      const args = { label, step, ms, ...(park ? { kind: 'risky' } : {}) }
      return { role: 'assistant', content: '', toolCalls: [{ id: `${label}-${step}`, name: 'work', arguments: JSON.stringify(args) }] }
    },
  }
}
