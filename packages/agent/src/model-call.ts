/**
 * One model request. The provider's `stream(req)` is used when it has one (text deltas go to
 * `onText` as they arrive), else `generate(req)`. The answer is checked and copied to a plain
 * assistant message, so that nothing the provider keeps a reference to can change the log.
 * A string `finishReason` on the provider's answer is kept on the message and goes to `onFinish`.
 * A run's abort is sovereign here too: a provider that has not answered `abandonAfterMs` after
 * `req.signal` aborted is given up on (the request rejects), as the kernel gives up on a call.
 */
import { DEFAULT_ABANDON_AFTER_MS, messageOf, type AssistantMessage, type GenerateRequest, type Provider, type ToolCall } from '@rein/kernel'

/**
 * Asks the model; rejects when the provider fails or answers something that is not a message,
 * or when it has not answered `abandonAfterMs` after `req.signal` aborted (nothing it does later
 * is passed on: no `onText`, no `onFinish`).
 */
export async function askModel(
  provider: Provider, req: GenerateRequest, onText: (text: string) => void, onFinish?: (finishReason: string) => void,
  abandonAfterMs = DEFAULT_ABANDON_AFTER_MS,
): Promise<AssistantMessage> {
  const signal = req.signal
  const live = { on: true }
  const asking = answerOf(provider, req, (text) => { if (live.on) onText(text) }, live)
  const answer = signal ? await abandonedAfter(asking, signal, abandonAfterMs, () => { live.on = false }) : await asking
  const message = normalize(answer)
  if (onFinish && message.finishReason !== undefined) onFinish(message.finishReason)
  return message
}

/** The provider's answer: the `message` event of its stream, or what `generate` resolves. */
async function answerOf(provider: Provider, req: GenerateRequest, onText: (text: string) => void, live: { on: boolean }): Promise<unknown> {
  if (!provider.stream) return provider.generate(req)
  let answer: unknown
  for await (const event of provider.stream(req)) {
    if (!live.on) break // given up on: leaving the loop asks the stream to end
    if (event.type === 'text-delta') onText(event.text)
    else if (event.type === 'message') answer = event.message
  }
  if (answer === undefined) throw new Error('the provider\'s stream ended without a { type: "message" } event')
  return answer
}

/**
 * `work`, unless it is still pending `ms` after `signal` aborts: then a rejection, and `giveUp()`.
 * What `work` does later is ignored (a late rejection included).
 */
function abandonedAfter<T>(work: Promise<T>, signal: AbortSignal, ms: number, giveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const onAbort = () => {
      timer = setTimeout(() => {
        giveUp()
        reject(new Error(`the provider had not answered ${ms}ms after the run was aborted; the model request was given up on`))
      }, ms)
    }
    const done = () => {
      signal.removeEventListener('abort', onAbort)
      if (timer !== undefined) clearTimeout(timer)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    work.then((value) => { done(); resolve(value) }, (error: unknown) => { done(); reject(error) })
  })
}

function normalize(answer: unknown): AssistantMessage {
  const a = answer as Partial<AssistantMessage> | null
  if (typeof a !== 'object' || a === null) throw new Error(`the provider answered ${typeof answer}, not an assistant message`)
  if (a.content !== undefined && typeof a.content !== 'string') throw new Error('the provider answered a message whose content is not a string')
  if (a.toolCalls !== undefined && !Array.isArray(a.toolCalls)) throw new Error('the provider answered toolCalls that is not an array')
  const calls: ToolCall[] = (a.toolCalls ?? []).map((call, i) => {
    if (typeof call?.id !== 'string' || call.id === '' || typeof call.name !== 'string') {
      throw new Error(`the provider answered tool call #${i} without a string id and name`)
    }
    // A string (what providers send) cannot change; only an object is copied.
    const args = typeof call.arguments === 'string' ? call.arguments : copyOf(call.arguments, i)
    return { id: call.id, name: call.name, arguments: args }
  })
  const message: AssistantMessage = { role: 'assistant', content: a.content ?? '' }
  if (calls.length > 0) message.toolCalls = calls
  if (a.usage) message.usage = { ...a.usage }
  if (typeof a.finishReason === 'string') message.finishReason = a.finishReason
  return message
}

/** A copy of object arguments; an object that cannot be copied (too deep, not data) is a clear failure. */
function copyOf(args: ToolCall['arguments'], i: number): ToolCall['arguments'] {
  try {
    return structuredClone(args)
  } catch (error) {
    throw new Error(`the provider answered tool call #${i} with arguments that cannot be copied: ${messageOf(error)}`)
  }
}
