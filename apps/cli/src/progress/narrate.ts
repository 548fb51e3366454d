/**
 * A provider that tells someone what the model said: every answer is passed to `onAnswer`
 * before the loop sees it. Used where the CLI builds the provider itself (`rein demo`), so
 * the terminal can show the model's words before its batch of calls runs. Changes nothing.
 */
import type { AssistantMessage, Provider } from '@rein/kernel'

/** Wraps `provider`; streaming is passed through, with the final message reported too. */
export function narrate(provider: Provider, onAnswer: (message: AssistantMessage) => void): Provider {
  const wrapped: Provider = {
    async generate(req) {
      const message = await provider.generate(req)
      onAnswer(message)
      return message
    },
  }
  if (provider.stream) {
    const stream = provider.stream.bind(provider)
    wrapped.stream = async function* (req) {
      for await (const event of stream(req)) {
        if (event.type === 'message') onAnswer(event.message)
        yield event
      }
    }
  }
  return wrapped
}
