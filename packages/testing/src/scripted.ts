/**
 * `scripted(steps)`: a Provider that answers from a script (DESIGN.md §3, contract). The n-th
 * request gets `steps[n]` (a message, or a function of the request returning one); past the
 * last step it answers the plain text `done`. Every request is recorded, with a copy of the
 * messages as they were at that moment, so a test can read exactly what the model was shown.
 */
import type { AssistantMessage, GenerateRequest, Provider, StreamEvent } from '@rein/kernel'

/** One answer of the script: a message, or a function of the request that returns one. */
export type ScriptStep =
  | AssistantMessage
  | ((req: GenerateRequest) => AssistantMessage | Promise<AssistantMessage>)

/** A scripted Provider; `requests` holds every request it was asked, in order. */
export interface ScriptedProvider extends Provider {
  readonly requests: GenerateRequest[]
}

/** Options of `scripted`. */
export interface ScriptedOptions {
  /** Also offer `stream(req)`: the content as word deltas, then the whole message. */
  stream?: boolean
}

const DONE: AssistantMessage = Object.freeze({ role: 'assistant', content: 'done' }) as AssistantMessage

/**
 * Builds the provider. A request whose signal is already aborted rejects with the signal's
 * reason (after being recorded), as a real provider would.
 */
export function scripted(steps: readonly ScriptStep[], options: ScriptedOptions = {}): ScriptedProvider {
  const requests: GenerateRequest[] = []
  const answer = async (req: GenerateRequest): Promise<AssistantMessage> => {
    const n = requests.length
    requests.push({ messages: [...req.messages], tools: req.tools, signal: req.signal })
    req.signal?.throwIfAborted()
    const step = n < steps.length ? steps[n] : DONE
    return typeof step === 'function' ? step(req) : step
  }
  const provider: ScriptedProvider = {
    requests,
    generate: answer,
  }
  if (options.stream) {
    provider.stream = async function* (req: GenerateRequest): AsyncIterable<StreamEvent> {
      const message = await answer(req)
      for (const word of message.content.match(/\S+\s*/g) ?? []) yield { type: 'text-delta', text: word }
      yield { type: 'message', message }
    }
  }
  return provider
}
