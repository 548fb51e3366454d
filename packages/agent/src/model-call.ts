/**
 * One model request. The provider's `stream(req)` is used when it has one (text deltas go to
 * `onText` as they arrive), else `generate(req)`. The answer is checked and copied to a plain
 * assistant message, so that nothing the provider keeps a reference to can change the log.
 * A string `finishReason` on the provider's answer (not part of the message) goes to `onFinish`.
 */
import type { AssistantMessage, GenerateRequest, Provider, ToolCall } from '@rein/kernel'

/** Asks the model; rejects when the provider fails or answers something that is not a message. */
export async function askModel(
  provider: Provider, req: GenerateRequest, onText: (text: string) => void, onFinish?: (finishReason: string) => void,
): Promise<AssistantMessage> {
  let answer: unknown
  if (provider.stream) {
    for await (const event of provider.stream(req)) {
      if (event.type === 'text-delta') onText(event.text)
      else if (event.type === 'message') answer = event.message
    }
    if (answer === undefined) throw new Error('the provider\'s stream ended without a { type: "message" } event')
  } else {
    answer = await provider.generate(req)
  }
  const message = normalize(answer)
  const finishReason = (answer as { finishReason?: unknown }).finishReason
  if (onFinish && typeof finishReason === 'string') onFinish(finishReason)
  return message
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
    const args = typeof call.arguments === 'string' ? call.arguments : structuredClone(call.arguments)
    return { id: call.id, name: call.name, arguments: args }
  })
  const message: AssistantMessage = { role: 'assistant', content: a.content ?? '' }
  if (calls.length > 0) message.toolCalls = calls
  if (a.usage) message.usage = { ...a.usage }
  return message
}
