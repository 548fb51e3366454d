/**
 * An in-memory provider that keeps the whole Provider contract, as a `ProviderAdapter`: it
 * answers the suite's scripts without a server, records each request the way a server would
 * read it, and redacts its key from its errors. `brokenBy(change)` derives a provider that
 * breaks one rule, so a test can show that the suite notices.
 */
import type { AssistantMessage, GenerateRequest, Message, Provider, StreamEvent } from '@rein/kernel'
import type { FixtureScript, ProviderAdapter, ReceivedRequest } from '../src/index.js'

/** What a broken provider gets to work with. */
export interface Parts {
  provider: Required<Provider>
  script: FixtureScript
  apiKey: string
}

/** Reads a request the way a server would see it. */
function received(req: GenerateRequest): ReceivedRequest {
  const text = (m: Message) => (typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'))
  return {
    system: req.messages.filter((m) => m.role === 'system').map(text).join('\n\n'),
    toolCalls: req.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls ?? [] : []))
      .map((c) => ({ id: c.id, name: c.name, arguments: typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments })),
    toolResults: req.messages.flatMap((m) => (m.role === 'tool' ? [{ toolCallId: m.toolCallId, text: text(m), isError: m.isError }] : [])),
    tools: req.tools.map((t) => t.name),
  }
}

function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }))
}

/** The adapter of the well-behaved provider, changed by `change` when given. */
export function reference(change?: (parts: Parts) => Provider): ProviderAdapter {
  return {
    start(script, { apiKey }) {
      const seen: ReceivedRequest[] = []
      const answer = async (req: GenerateRequest): Promise<AssistantMessage> => {
        seen.push(received(req))
        req.signal?.throwIfAborted()
        switch (script.kind) {
          case 'answer': return structuredClone(script.message)
          case 'stall': return untilAborted(req.signal)
          case 'fail': throw new Error(`HTTP ${script.status}: ${script.message.replaceAll(apiKey, '[redacted]')}`)
        }
      }
      const provider: Required<Provider> = {
        generate: answer,
        async *stream(req): AsyncGenerator<StreamEvent> {
          if (script.kind === 'stall') yield { type: 'text-delta', text: script.text }
          const message = await answer(req)
          for (const piece of message.content.match(/.{1,4}/gsu) ?? []) yield { type: 'text-delta', text: piece }
          yield { type: 'message', message }
        },
      }
      return { provider: change ? change({ provider, script, apiKey }) : provider, received: () => seen, close() {} }
    },
  }
}
