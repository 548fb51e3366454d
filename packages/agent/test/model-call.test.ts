import { describe, expect, it } from 'vitest'
import type { AssistantMessage, GenerateRequest, Provider } from '@rein/kernel'
import { askModel } from '../src/model-call.js'

const req: GenerateRequest = { messages: [], tools: [] }

describe('askModel', () => {
  it('prefers stream(req) when the provider has it, passing text deltas on', async () => {
    const texts: string[] = []
    const provider: Provider = {
      generate: async () => { throw new Error('generate must not be used') },
      async *stream() {
        yield { type: 'text-delta', text: 'a' }
        yield { type: 'message', message: { role: 'assistant', content: 'a' } }
      },
    }
    expect(await askModel(provider, req, (t) => texts.push(t))).toEqual({ role: 'assistant', content: 'a' })
    expect(texts).toEqual(['a'])
  })

  it('copies the answer, so that the provider cannot change the log afterwards', async () => {
    const answer: AssistantMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 't', arguments: { deep: [1] } }] }
    const copy = await askModel({ generate: async () => answer }, req, () => {})
    ;(answer.toolCalls![0].arguments as { deep: number[] }).deep.push(2)
    expect(copy.toolCalls![0].arguments).toEqual({ deep: [1] })
  })

  it('rejects a stream without a final message and an answer that is not a message', async () => {
    const empty: Provider = { generate: async () => ({ role: 'assistant', content: '' }), async *stream() {} }
    await expect(askModel(empty, req, () => {})).rejects.toThrow(/ended without a \{ type: "message" \} event/)
    await expect(askModel({ generate: async () => 'hi' as never }, req, () => {})).rejects.toThrow(/answered string/)
  })

  it('gives up on a provider that has not answered abandonAfterMs after the abort, and passes on nothing it does later', async () => {
    const controller = new AbortController()
    const texts: string[] = []
    let release!: () => void
    const late = new Promise<void>((resolve) => { release = resolve })
    const provider: Provider = {
      generate: async () => { throw new Error('unused') },
      async *stream() {
        await late
        yield { type: 'text-delta', text: 'too late' }
        yield { type: 'message', message: { role: 'assistant', content: 'too late' } }
      },
    }
    const asked = askModel(provider, { ...req, signal: controller.signal }, (t) => texts.push(t), undefined, 10)
    controller.abort()
    await expect(asked).rejects.toThrow('the provider had not answered 10ms after the run was aborted; the model request was given up on')
    release()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(texts).toEqual([])
  })

  it('waits for a provider that answers within the window after the abort, and for one given no signal', async () => {
    const controller = new AbortController()
    const slow: Provider = { generate: () => new Promise((resolve) => setTimeout(() => resolve({ role: 'assistant', content: 'ok' }), 5)) }
    const asked = askModel(slow, { ...req, signal: controller.signal }, () => {}, undefined, 200)
    controller.abort()
    expect(await asked).toEqual({ role: 'assistant', content: 'ok' })
    expect(await askModel(slow, req, () => {}, undefined, 0)).toEqual({ role: 'assistant', content: 'ok' })
  })

  it('rejects object arguments it cannot copy with a message naming the call', async () => {
    const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)
    const answer: AssistantMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 't', arguments: deep }] }
    await expect(askModel({ generate: async () => answer }, req, () => {})).rejects.toThrow(/^the provider answered tool call #0 with arguments that cannot be copied: /)
  })
})
