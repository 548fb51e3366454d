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
})
