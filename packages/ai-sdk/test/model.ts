/**
 * A scripted AI SDK model (the real `MockLanguageModelV3`): step n answers with the n-th list
 * of tool calls, and past the last one with the text `done`. Every prompt it was given is
 * kept, so a test reads what the model saw of each tool result.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart, LanguageModelV3Text, LanguageModelV3ToolCall } from '@ai-sdk/provider'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'

/** One tool call the model makes: name and arguments (written as JSON, as a model does). */
export interface ScriptedCall { id: string, name: string, input: unknown }

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

function contentOf(step: ScriptedCall[] | undefined): (LanguageModelV3Text | LanguageModelV3ToolCall)[] {
  if (!step) return [{ type: 'text', text: 'done' }]
  return step.map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) }))
}

/** A model that makes `steps[n]`'s calls at step n, for `generateText` and `streamText`. */
export function scriptedModel(steps: ScriptedCall[][]) {
  let n = 0
  const finish = (step: ScriptedCall[] | undefined) => ({ unified: step ? 'tool-calls' as const : 'stop' as const, raw: undefined })
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps[n++]
      return { content: contentOf(step), finishReason: finish(step), usage, warnings: [] }
    },
    doStream: async () => {
      const step = steps[n++]
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }]
      for (const block of contentOf(step)) {
        if (block.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: block.text }, { type: 'text-end', id: 't' })
        else parts.push(block)
      }
      parts.push({ type: 'finish', finishReason: finish(step), usage })
      return { stream: simulateReadableStream({ chunks: parts }) }
    },
  })
}

/** The text of every tool result in `prompt`, by tool call id. */
export function toolOutputs(prompt: LanguageModelV3CallOptions['prompt']): Record<string, string> {
  const outputs: Record<string, string> = {}
  for (const message of prompt) {
    if (message.role !== 'tool') continue
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue
      const output = part.output
      outputs[part.toolCallId] = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output)
    }
  }
  return outputs
}
