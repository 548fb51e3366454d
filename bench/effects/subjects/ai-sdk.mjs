// One life of the AI SDK row: `node subjects/ai-sdk.mjs <dir>`. `generateText` with the
// scripted MockLanguageModelV3 and one `append` tool. The AI SDK keeps no state of a run, so
// every life starts the task again from its first message.
import { generateText, tool, stepCountIs } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { z } from 'zod'
import { appendEffect, CALLS, done, filesOf, nextCall, ready, recordAsk } from '../lib/workload.mjs'

const [dir] = process.argv.slice(2)
const files = filesOf(dir)
const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

/** The scripted model: the next item while results are missing, then 'done'. */
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const results = prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).filter((p) => p.type === 'tool-result')
    const call = nextCall(results.map((p) => JSON.stringify(p.output)))
    const reply = call === undefined
      ? { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' } }
      : { content: [{ type: 'tool-call', toolCallId: call.id, toolName: 'append', input: JSON.stringify({ item: call.item }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' } }
    if (call !== undefined) recordAsk(files, call.item)
    return { ...reply, usage: USAGE, warnings: [] }
  },
})

const append = tool({
  description: 'Appends one line for the item to the ledger.',
  inputSchema: z.object({ item: z.number().int() }),
  execute: async ({ item }, { toolCallId }) => appendEffect(files, { item, call: toolCallId }),
})

ready()
const { text } = await generateText({ model, tools: { append }, prompt: 'Append items 1 to 100 to the ledger, one call each.', stopWhen: stepCountIs(2 * CALLS) })
done({ kind: text === 'done' ? 'completed' : 'incomplete' })
process.exit(text === 'done' ? 0 : 1)
