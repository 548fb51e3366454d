/**
 * The Provider contract (DESIGN.md §3) as one suite every provider runs against its own wire:
 * `testProvider(name, adapter, { describe, it })`. The adapter starts a fixture that answers,
 * in the provider's wire protocol, what a check scripts (an answer, a stall, a failure) and
 * reports what the server received in rein's terms. The checks are plain async functions on
 * `node:assert`, exported as `providerChecks`: this module loads no test runner, since
 * `@rein/testing` is also loaded at run time (by `rein demo`).
 */
import assert from 'node:assert/strict'
import { drainStream } from './stream-drain.js'
import type { AssistantMessage, GenerateRequest, Message, Provider, StreamEvent, ToolCall } from '@rein/kernel'
import { secretLeaks } from './secret-leaks.js'

/** What a check asks the fixture to do with every request it gets. */
export type FixtureScript =
  /** Answer with this message: streamed (text split into several deltas) when the request asks for a stream, whole otherwise. */
  | { kind: 'answer', message: AssistantMessage }
  /** Begin a streamed answer whose first text is `text`, then send nothing more; a non-streamed request gets no answer at all. */
  | { kind: 'stall', text: string }
  /** Fail with this HTTP status, `message` standing where the wire puts the server's explanation. */
  | { kind: 'fail', status: number, message: string }

/** One request as the server received it, read back into rein's terms by the adapter. */
export interface ReceivedRequest {
  /** The system prompt as sent (all system text). */
  system: string
  /** Every tool call of the transcript as sent, `arguments` parsed. */
  toolCalls: { id: string, name: string, arguments: unknown }[]
  /** Every tool result as sent; `isError` left out when the wire cannot say it. */
  toolResults: { toolCallId: string, text: string, isError?: boolean }[]
  /** The names of the tools offered. */
  tools: string[]
}

/** A provider pointed at a running fixture. */
export interface ProviderFixture {
  provider: Provider
  /** What the fixture received so far, one entry per request. */
  received(): readonly ReceivedRequest[]
  close(): unknown
}

/** How the suite reaches one provider: a fixture per check, the provider built with `apiKey` as its credential. */
export interface ProviderAdapter {
  start(script: FixtureScript, credentials: { apiKey: string }): ProviderFixture | Promise<ProviderFixture>
}

/** The test runner's `describe` and `it` (vitest's, node:test's, jest's...). */
export interface TestRunner {
  describe: (name: string, body: () => void) => unknown
  it: (name: string, body: () => Promise<void>) => unknown
}

/** The answer with text only. Non-ASCII on purpose: deltas may split anywhere. */
export const TEXT_ANSWER: AssistantMessage = Object.freeze({ role: 'assistant', content: 'A rein guides a horse — «żółw» 🐴 means turtle.' }) as AssistantMessage

/** The answer with text and two parallel tool calls. */
export const CALLS_ANSWER: AssistantMessage = Object.freeze({
  role: 'assistant',
  content: 'Let me look both up.',
  toolCalls: [
    { id: 'call_1', name: 'lookup', arguments: '{"word":"żółw 🐢","limit":2}' },
    { id: 'call_2', name: 'lookup', arguments: '{"word":"bridle","tags":["tack","horse"]}' },
  ],
}) as AssistantMessage

const TOOLS = [{ name: 'lookup', description: 'Look a word up', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } }]
const SYSTEM = 'Answer briefly.'
/** The results of the two calls in `contractRequest`, the second a failure. */
const RESULTS = [
  { toolCallId: 'call_a', text: 'a strap to guide a horse', isError: false },
  { toolCallId: 'call_b', text: 'Error: no entry for "bridle"', isError: true },
]

/** A transcript with two parallel calls answered, one of them with an error; deep-frozen, so a provider that mutates it throws. */
export function contractRequest(signal?: AbortSignal): GenerateRequest {
  const messages: Message[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: 'What do "rein" and "bridle" mean?' },
    { role: 'assistant', content: '', toolCalls: [
      { id: 'call_a', name: 'lookup', arguments: '{"word":"rein"}' },
      { id: 'call_b', name: 'lookup', arguments: '{"word":"bridle"}' },
    ] },
    ...RESULTS.map(({ toolCallId, text, isError }): Message => ({ role: 'tool', toolCallId, isError, content: [{ type: 'text', text }] })),
  ]
  return deepFreeze({ messages, tools: TOOLS, ...(signal ? { signal } : {}) })
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !(value instanceof AbortSignal)) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** How long an abort may take to reject. */
const PROMPT_MS = 1000

/** Runs `body` on a fresh fixture whose provider holds a fresh key; `script` may quote that key. */
async function withFixture(adapter: ProviderAdapter, script: FixtureScript | ((key: string) => FixtureScript), body: (f: ProviderFixture, key: string) => Promise<void>): Promise<void> {
  const key = `sk-contract-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`
  const fixture = await adapter.start(typeof script === 'function' ? script(key) : script, { apiKey: key })
  try { await body(fixture, key) } finally { await fixture.close() }
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const { events: out, error } = await drainStream(events)
  if (error !== undefined) throw error
  return out
}

/** Asserts the shape every assistant message has (DESIGN.md §3). */
export function assertAssistantMessage(message: AssistantMessage): void {
  assert.equal(message?.role, 'assistant', 'the answer is not an assistant message')
  assert.equal(typeof message.content, 'string', 'the answer\'s content is not a string')
  assert.ok(message.toolCalls === undefined || Array.isArray(message.toolCalls), 'toolCalls is neither absent nor an array')
  const calls = message.toolCalls ?? []
  for (const call of calls) {
    assert.ok(typeof call.id === 'string' && call.id !== '', `a tool call has no id: ${JSON.stringify(call)}`)
    assert.ok(typeof call.name === 'string' && call.name !== '', `a tool call has no name: ${JSON.stringify(call)}`)
    assert.ok(typeof call.arguments === 'string' || (typeof call.arguments === 'object' && call.arguments !== null), `tool call ${call.id} has arguments that are neither a JSON string nor an object`)
  }
  assert.equal(new Set(calls.map((c) => c.id)).size, calls.length, 'two tool calls share an id')
  for (const n of [message.usage?.inputTokens, message.usage?.outputTokens]) {
    if (n !== undefined) assert.ok(Number.isInteger(n) && n >= 0, `usage holds ${n}, not a token count`)
  }
}

/** A call's arguments as a value: a string is parsed (and must be JSON), an object is taken as is. */
function argumentsOf(call: Pick<ToolCall, 'id' | 'arguments'>): unknown {
  if (typeof call.arguments !== 'string') return call.arguments
  try { return JSON.parse(call.arguments) } catch { assert.fail(`the arguments of tool call ${call.id} are not JSON: ${call.arguments}`) }
}

function callsOf(message: AssistantMessage): { id: string, name: string, arguments: unknown }[] {
  return (message.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: argumentsOf(c) }))
}

function streamOf(provider: Provider): (req: GenerateRequest) => AsyncIterable<StreamEvent> {
  assert.ok(provider.stream !== undefined)
  return provider.stream.bind(provider)
}

/** Waits until `ready()` holds, polling; fails with `what` after `ms`. */
async function until(ready: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(what)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Resolves when `pending` rejects within `ms`; fails when it resolves or takes longer. */
async function rejectsWithin(pending: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new assert.AssertionError({ message: `${what} did not reject within ${ms}ms of the abort` })), ms)
  })
  const settled = pending.then(
    () => { throw new assert.AssertionError({ message: `${what} resolved although its signal was aborted` }) },
    () => undefined)
  try { await Promise.race([settled, late]) } finally { clearTimeout(timer) }
}

async function rejectionOf(pending: Promise<unknown>, what: string): Promise<unknown> {
  try { await pending } catch (error) { return error }
  assert.fail(`${what} resolved, but the server answered with an error`)
}

function assertNoKey(error: unknown, key: string, what: string): void {
  assert.ok(error instanceof Error, `${what} rejected with ${typeof error}, not an Error`)
  assert.ok(error.message.trim() !== '', `${what} rejected with an empty message`)
  const leaks = secretLeaks(error, key)
  assert.deepEqual(leaks, [], `${what}'s error shows the API key: ${leaks.join('; ')}`)
}

type Check = (adapter: ProviderAdapter) => Promise<void>

/** The checks, by title. Each rejects with an assertion error when the provider breaks the contract. */
export const providerChecks = {
  'generate resolves to an assistant message with the answer and leaves the request untouched': (adapter) =>
    withFixture(adapter, { kind: 'answer', message: TEXT_ANSWER }, async ({ provider }) => {
      const req = contractRequest()
      const message = await provider.generate(req)
      assertAssistantMessage(message)
      assert.equal(message.content, TEXT_ANSWER.content, 'the text differs from what the server sent')
      assert.deepEqual(message.toolCalls ?? [], [], 'tool calls appeared that the server did not send')
      assert.deepEqual(req, contractRequest(), 'the request was changed')
    }),

  'tool calls keep their ids, names and arguments, in order': (adapter) =>
    withFixture(adapter, { kind: 'answer', message: CALLS_ANSWER }, async ({ provider }) => {
      const message = await provider.generate(contractRequest())
      assertAssistantMessage(message)
      assert.equal(message.content, CALLS_ANSWER.content)
      assert.deepEqual(callsOf(message), callsOf(CALLS_ANSWER), 'the tool calls differ from what the server sent')
    }),

  'the server receives the system prompt, the tool calls and their results': (adapter) =>
    withFixture(adapter, { kind: 'answer', message: TEXT_ANSWER }, async ({ provider, received }) => {
      const req = contractRequest()
      await provider.generate(req)
      const seen = received()
      assert.equal(seen.length, 1, `the fixture received ${seen.length} requests, not 1`)
      const got = seen[0]!
      assert.ok(got.system.includes(SYSTEM), `the system prompt was not sent (the server got ${JSON.stringify(got.system)})`)
      const assistant = req.messages[2] as AssistantMessage
      assert.deepEqual(got.toolCalls, callsOf(assistant), 'the transcript\'s tool calls were not sent as they are')
      // A wire that cannot say `isError` leaves it out; it is then not compared.
      const sent = got.toolResults.map((r, i) => ({ ...r, isError: r.isError ?? RESULTS[i]?.isError }))
      assert.deepEqual(sent, RESULTS, 'the tool results (ids, texts, isError) were not sent in order')
      assert.deepEqual(got.tools, ['lookup'], 'the tools offered were not sent')
    }),

  'stream yields text deltas that spell the text, then exactly one message, last': async (adapter) => {
    for (const answer of [TEXT_ANSWER, CALLS_ANSWER]) {
      await withFixture(adapter, { kind: 'answer', message: answer }, async ({ provider }) => {
        if (provider.stream === undefined) return
        const events = await collect(streamOf(provider)(contractRequest()))
        const last = events.at(-1)
        assert.equal(last?.type, 'message', 'the stream did not end with a message event')
        const deltas = events.slice(0, -1)
        for (const e of deltas) assert.equal(e.type, 'text-delta', 'a second message event, or an unknown event, came before the last')
        const message = (last as Extract<StreamEvent, { type: 'message' }>).message
        assertAssistantMessage(message)
        const text = deltas.map((e) => (e as Extract<StreamEvent, { type: 'text-delta' }>).text).join('')
        assert.equal(text, message.content, 'the deltas do not spell the message\'s text')
        assert.equal(message.content, answer.content)
        assert.deepEqual(callsOf(message), callsOf(answer))
      })
    }
  },

  "stream's message equals generate's for the same answer": (adapter) =>
    withFixture(adapter, { kind: 'answer', message: CALLS_ANSWER }, async ({ provider }) => {
      if (provider.stream === undefined) return
      const streamed = (await collect(streamOf(provider)(contractRequest()))).at(-1)
      assert.deepEqual(streamed, { type: 'message', message: await provider.generate(contractRequest()) })
    }),

  'an already-aborted signal rejects generate and stream': (adapter) =>
    withFixture(adapter, { kind: 'answer', message: TEXT_ANSWER }, async ({ provider }) => {
      const signal = AbortSignal.abort()
      await rejectsWithin(provider.generate(contractRequest(signal)), PROMPT_MS, 'generate')
      if (provider.stream !== undefined) await rejectsWithin(collect(streamOf(provider)(contractRequest(signal))), PROMPT_MS, 'stream')
    }),

  'an abort while the answer is under way rejects generate and stream promptly': async (adapter) => {
    await withFixture(adapter, { kind: 'stall', text: 'Thinking' }, async ({ provider, received }) => {
      const controller = new AbortController()
      const pending = provider.generate(contractRequest(controller.signal))
      pending.catch(() => {})
      await until(() => received().length > 0, 'the request never reached the fixture')
      controller.abort()
      await rejectsWithin(pending, PROMPT_MS, 'generate')
    })
    await withFixture(adapter, { kind: 'stall', text: 'Thinking' }, async ({ provider, received }) => {
      if (provider.stream === undefined) return
      const controller = new AbortController()
      const events: StreamEvent[] = []
      const draining = (async () => { for await (const e of streamOf(provider)(contractRequest(controller.signal))) events.push(e) })()
      draining.catch(() => {})
      await until(() => received().length > 0, 'the request never reached the fixture')
      // A streaming provider shows the text that came before the stall; one that does not stream shows nothing.
      await until(() => events.length > 0, 'nothing arrived', 300).catch(() => {})
      for (const e of events) assert.equal(e.type, 'text-delta', 'a message event came out of an answer that never finished')
      controller.abort()
      await rejectsWithin(draining, PROMPT_MS, 'stream')
    })
  },

  'errors never show the API key, even when the server echoes it': async (adapter) => {
    for (const status of [401, 400]) {
      const echo = (key: string): FixtureScript => ({ kind: 'fail', status, message: status === 401 ? `invalid api key: ${key}` : `could not parse the request {"api_key":"${key}"}` })
      await withFixture(adapter, echo, async ({ provider }, key) => {
        const what = `generate (HTTP ${status})`
        assertNoKey(await rejectionOf(provider.generate(contractRequest()), what), key, what)
        if (provider.stream === undefined) return
        const streamed = `stream (HTTP ${status})`
        assertNoKey(await rejectionOf(collect(streamOf(provider)(contractRequest())), streamed), key, streamed)
      })
    }
  },
} satisfies Record<string, Check>

/** The title of one check. */
export type ProviderCheck = keyof typeof providerChecks

function runnerOf(given: Partial<TestRunner>): TestRunner {
  const g = globalThis as Partial<TestRunner>
  const describe = given.describe ?? g.describe
  const it = given.it ?? g.it
  if (typeof describe !== 'function' || typeof it !== 'function') {
    throw new TypeError('testProvider needs the test runner\'s describe and it: call testProvider(name, adapter, { describe, it }) with them imported from "vitest" (or "node:test")')
  }
  return { describe, it }
}

/**
 * Registers the contract suite for one provider: one test per check, each on a fresh fixture.
 * `runner` is the test runner's `{ describe, it }`; when left out, the global ones are used.
 */
export function testProvider(name: string, adapter: ProviderAdapter, runner: Partial<TestRunner> = {}): void {
  const { describe, it } = runnerOf(runner)
  describe(`Provider contract: ${name}`, () => {
    for (const [title, check] of Object.entries(providerChecks)) it(title, () => check(adapter))
  })
}
