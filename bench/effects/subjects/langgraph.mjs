// One life of the LangGraph row: `node subjects/langgraph.mjs <dir> <postgres url>`. A
// two-node StateGraph (scripted model node <-> prebuilt ToolNode) compiled with the PostgreSQL
// checkpointer, `durability: 'sync'` (each step's checkpoint is written before the next step
// starts: the strongest setting; the default, 'async', writes it while the next step runs).
// A new thread is invoked with the task; a thread a killed life left unfinished is resumed
// from its last checkpoint with `invoke(null)`, as LangGraph documents for recovery.
import { StateGraph, MessagesAnnotation, START, END } from '@langchain/langgraph'
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt'
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres'
import { tool } from '@langchain/core/tools'
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import { z } from 'zod'
import { appendEffect, done, filesOf, nextCall, ready, recordAsk } from '../lib/workload.mjs'

const [dir, url] = process.argv.slice(2)
const files = filesOf(dir)

const append = tool(
  async ({ item }, config) => appendEffect(files, { item, call: config.toolCall?.id }),
  { name: 'append', description: 'Appends one line for the item to the ledger.', schema: z.object({ item: z.number().int() }) },
)

const graph = new StateGraph(MessagesAnnotation)
  .addNode('model', (state) => {
    const texts = state.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    const call = nextCall(texts)
    if (call === undefined) return { messages: [new AIMessage('done')] }
    recordAsk(files, call.item)
    return { messages: [new AIMessage({ content: '', tool_calls: [{ id: call.id, name: 'append', args: { item: call.item }, type: 'tool_call' }] })] }
  })
  .addNode('tools', new ToolNode([append]))
  .addEdge(START, 'model')
  .addConditionalEdges('model', toolsCondition, ['tools', END])
  .addEdge('tools', 'model')

const checkpointer = PostgresSaver.fromConnString(url)
const app = graph.compile({ checkpointer })
const config = { configurable: { thread_id: 'effects' }, recursionLimit: 10_000, durability: 'sync' }
const state = await app.getState(config)
const started = state.values.messages?.length > 0
ready()
const out = started
  ? await app.invoke(null, config)
  : await app.invoke({ messages: [new HumanMessage('Append items 1 to 100 to the ledger, one call each.')] }, config)
await checkpointer.end()
const last = out.messages.at(-1)
done({ kind: last?.content === 'done' ? 'completed' : 'incomplete' })
process.exit(last?.content === 'done' ? 0 : 1)
