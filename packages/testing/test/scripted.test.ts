import { describe, expect, it } from 'vitest'
import type { GenerateRequest } from '@rein/kernel'
import { callMessage, scripted, textMessage, toolCall } from '../src/index.js'

const request = (text: string): GenerateRequest => ({ messages: [{ role: 'user', content: text }], tools: [] })

describe('scripted', () => {
  it('answers the n-th request with the n-th step, then with plain text "done"', async () => {
    const first = callMessage([toolCall('call_1', 'echo', { a: 1 })])
    const provider = scripted([first, textMessage('second')])
    expect(await provider.generate(request('a'))).toBe(first)
    expect((await provider.generate(request('b'))).content).toBe('second')
    expect(await provider.generate(request('c'))).toEqual({ role: 'assistant', content: 'done' })
  })

  it('calls a function step with the request', async () => {
    const provider = scripted([(req) => textMessage(`saw ${req.messages.length} message(s)`)])
    expect((await provider.generate(request('x'))).content).toBe('saw 1 message(s)')
  })

  it('records every request with the messages as they were when it was asked', async () => {
    const provider = scripted([])
    const messages = [{ role: 'user' as const, content: 'hi' }]
    await provider.generate({ messages, tools: [] })
    messages.push({ role: 'user', content: 'later' })
    expect(provider.requests).toHaveLength(1)
    expect(provider.requests[0].messages).toEqual([{ role: 'user', content: 'hi' }])
  })

  it('rejects a request whose signal is already aborted, after recording it', async () => {
    const provider = scripted([textMessage('never')])
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    await expect(provider.generate({ ...request('x'), signal: controller.signal })).rejects.toThrow('stop')
    expect(provider.requests).toHaveLength(1)
  })

  it('streams word deltas and then the whole message when asked to', async () => {
    const provider = scripted([textMessage('two words')], { stream: true })
    const events = []
    for await (const event of provider.stream!(request('x'))) events.push(event)
    expect(events).toEqual([
      { type: 'text-delta', text: 'two ' },
      { type: 'text-delta', text: 'words' },
      { type: 'message', message: textMessage('two words') },
    ])
  })
})
