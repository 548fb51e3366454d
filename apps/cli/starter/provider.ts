/**
 * The model. With the variable named by `keyVariable` set (DEEPSEEK_API_KEY in rein.yaml),
 * DeepSeek through @rein/provider-openai; any OpenAI-compatible server works by changing
 * `baseURL` and `model`. Without it, an offline model that needs no key and no network: it
 * looks at this folder through the same plugins and tools a real model would, then says how
 * to switch. `rein check` and `rein chains` never ask the model, so they pass either way.
 */
import type { GenerateRequest, Provider } from '@rein/kernel'
import { createProvider as openaiCompatible } from '@rein/provider-openai'
import { callMessage, textMessage, toolCall } from '@rein/testing'

export interface Config {
  model: string
  baseURL: string
  /** The environment variable that holds the API key. */
  keyVariable: string
}

export function createProvider(config: Config): Provider {
  const apiKey = process.env[config.keyVariable]
  if (apiKey) return openaiCompatible({ model: config.model, baseURL: config.baseURL, apiKey })
  return offline(config.keyVariable)
}

/**
 * An offline model that answers from the conversation it is shown, never from a count of its
 * own: each task gets one batch of two reads, then an answer about it. So one instance serves
 * any number of sessions at once (a `rein worker` shares it between all its runs).
 */
function offline(keyVariable: string): Provider {
  return {
    async generate(req: GenerateRequest) {
      req.signal?.throwIfAborted()
      if (answered(req)) {
        return textMessage(`The offline model cannot do "${task(req)}". Set ${keyVariable} (or edit provider.ts) to run a real model.`)
      }
      // Call ids stay unique within the session: they count the results it already holds.
      const n = req.messages.filter((m) => m.role === 'tool').length
      return callMessage([toolCall(`o${n + 1}`, 'list_dir', { path: '.' }), toolCall(`o${n + 2}`, 'read_file', { path: 'rein.yaml', limit: 15 })],
        `${keyVariable} is not set, so this is the offline model of provider.ts: it reads this folder through every plugin.`)
    },
  }
}

/** Whether the model has already spoken since the task was given (its reads are done). */
function answered(req: GenerateRequest): boolean {
  const asked = req.messages.findLastIndex((m) => m.role === 'user' && typeof m.content === 'string')
  return req.messages.slice(asked + 1).some((m) => m.role === 'assistant')
}

/** The task of this run: the last user message written as plain text. */
function task(req: GenerateRequest): string {
  const asked = req.messages.findLast((m) => m.role === 'user' && typeof m.content === 'string')
  return typeof asked?.content === 'string' ? asked.content : 'the task'
}
