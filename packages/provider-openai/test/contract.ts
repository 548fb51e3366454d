/**
 * The contract every rein Provider keeps (DESIGN.md §3), as a reusable suite:
 * `testProvider('name', make)` registers one test per check. `make` must return a provider
 * that answers the same request the same way each time (a fixture server, a script), since
 * one check compares `stream` with `generate`. The checks are also exported as plain
 * functions, so that a test can show that they catch a broken provider.
 */
import type { AssistantMessage, GenerateRequest, Message, Provider, StreamEvent } from '@rein/kernel'
import { describe, expect, it } from 'vitest'

/** A provider under test, with the clean-up it needs. */
export interface ProviderUnderTest { provider: Provider, dispose?: () => unknown }
/** Builds a fresh provider for one check. */
export type MakeProvider = () => Promise<Provider | ProviderUnderTest> | Provider | ProviderUnderTest

export interface ContractOptions {
  /** Whether the provider rejects a request whose signal is already aborted. Default true. */
  honoursAbort?: boolean
}

const tools = [{ name: 'lookup', description: 'Look a word up', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } }]

/** A transcript with a complete tool round trip, deep-frozen so that a provider that mutates it throws. */
export function contractRequest(signal?: AbortSignal): GenerateRequest {
  const messages: Message[] = [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'What does "rein" mean?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_a', name: 'lookup', arguments: '{"word":"rein"}' }] },
    { role: 'tool', toolCallId: 'call_a', isError: false, content: [{ type: 'text', text: 'a strap to guide a horse' }] },
  ]
  return deepFreeze({ messages, tools, ...(signal ? { signal } : {}) })
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !(value instanceof AbortSignal)) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

async function withProvider(make: MakeProvider, body: (p: Provider) => Promise<void>): Promise<void> {
  const made = await make()
  const under = 'provider' in made && typeof (made as ProviderUnderTest).provider === 'object' ? made as ProviderUnderTest : { provider: made as Provider }
  try { await body(under.provider) } finally { await under.dispose?.() }
}

/** Checks the shape of an assistant message. */
export function expectAssistantMessage(message: AssistantMessage): void {
  expect(message.role).toBe('assistant')
  expect(typeof message.content).toBe('string')
  const calls = message.toolCalls ?? []
  expect(Array.isArray(calls)).toBe(true)
  for (const call of calls) {
    expect(call.id).toEqual(expect.any(String))
    expect(call.id).not.toBe('')
    expect(call.name).toEqual(expect.any(String))
    expect(call.name).not.toBe('')
    expect(typeof call.arguments === 'string' || (typeof call.arguments === 'object' && call.arguments !== null)).toBe(true)
  }
  expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length)
  for (const n of [message.usage?.inputTokens, message.usage?.outputTokens]) if (n !== undefined) expect(Number.isInteger(n) && n >= 0).toBe(true)
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = []
  for await (const e of events) out.push(e)
  return out
}

/** The checks, by name. Each throws (an assertion error) when the provider breaks the contract. */
export const providerChecks = {
  'generate resolves to an assistant message and leaves the request untouched': (make: MakeProvider) => withProvider(make, async (p) => {
    const req = contractRequest()
    expectAssistantMessage(await p.generate(req))
    expect(req).toEqual(contractRequest())
  }),
  'stream yields text deltas that spell the text, then exactly one message, last': (make: MakeProvider) => withProvider(make, async (p) => {
    if (p.stream === undefined) return
    const events = await collect(p.stream(contractRequest()))
    const last = events.at(-1)
    expect(last?.type).toBe('message')
    const deltas = events.slice(0, -1)
    for (const e of deltas) expect(e.type).toBe('text-delta')
    const message = (last as Extract<StreamEvent, { type: 'message' }>).message
    expectAssistantMessage(message)
    expect(deltas.map((e) => (e as Extract<StreamEvent, { type: 'text-delta' }>).text).join('')).toBe(message.content)
  }),
  "stream's message equals generate's for the same request": (make: MakeProvider) => withProvider(make, async (p) => {
    if (p.stream === undefined) return
    const streamed = (await collect(p.stream(contractRequest()))).at(-1)
    expect(streamed).toEqual({ type: 'message', message: await p.generate(contractRequest()) })
  }),
  'an already-aborted signal rejects generate and stream': (make: MakeProvider) => withProvider(make, async (p) => {
    const signal = AbortSignal.abort()
    await expect(p.generate(contractRequest(signal))).rejects.toBeDefined()
    if (p.stream !== undefined) await expect(collect(p.stream(contractRequest(signal)))).rejects.toBeDefined()
  }),
} as const

/** Registers the contract suite for one provider. */
export function testProvider(name: string, make: MakeProvider, options: ContractOptions = {}): void {
  describe(`Provider contract: ${name}`, () => {
    for (const [title, check] of Object.entries(providerChecks)) {
      if (title.startsWith('an already-aborted') && options.honoursAbort === false) continue
      it(title, () => check(make))
    }
  })
}
