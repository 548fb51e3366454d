// A harness in code: three policy plugins, the file tools and a model; one run, and its answer.
// Run from the repository root: npx -y pnpm@10 --filter @rein/example-quickstart start (after npx -y pnpm@10 build).
// Anywhere else: copy this file and workspace/, `npm install @rein/loader cordis`, then `node run.mjs`.
// With DEEPSEEK_API_KEY set it asks DeepSeek; without, a scripted stand-in plays the model.
import { fileURLToPath } from 'node:url'
import { createHarness } from '@rein/loader'
import * as permissionGuard from '@rein/plugin-permission-guard'
import * as retry from '@rein/plugin-retry'
import * as timeoutPolicy from '@rein/plugin-timeout-policy'
import * as fsTools from '@rein/tools-fs'

/**
 * Stands in for a model: reads the notes and tries to clear them in one reply, then answers from the results.
 * @type {import('@rein/loader').HarnessOptions['provider']}
 */
const offlineModel = {
  async generate({ messages }) {
    const results = messages.filter((message) => message.role === 'tool')
    if (results.length === 0) {
      return { role: 'assistant', content: 'Reading your notes.', toolCalls: [
        { id: 'call_1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.md' }) },
        { id: 'call_2', name: 'write_file', arguments: JSON.stringify({ path: 'notes.md', content: '' }) },
      ] }
    }
    const [read, write] = results.map((message) => message.content.map((block) => block.type === 'text' ? block.text : '').join(''))
    const items = read.split('\n').filter((line) => line.startsWith('- ')).map((line) => line.slice(2))
    return { role: 'assistant', content: `Your notes list ${items.length} things: ${items.join('; ')}. I left the file as it is (${write}).` }
  },
}

const provider = process.env.DEEPSEEK_API_KEY
  ? (await import('@rein/provider-openai')).createProvider({ baseURL: 'https://api.deepseek.com', model: 'deepseek-chat', apiKey: process.env.DEEPSEEK_API_KEY })
  : offlineModel

const harness = await createHarness({
  provider,
  plugins: [                                  // the first listed is the outermost
    [retry, { maxAttempts: 2 }],              // retries idempotent tools that time out...
    [timeoutPolicy, { defaultMs: 10_000 }],   // ...each attempt with its own deadline
    [permissionGuard, { rules: [{ tool: 'write_file', action: 'deny', reason: 'this harness only reads' }] }],
  ],
  tools: [[fsTools, { root: fileURLToPath(new URL('./workspace', import.meta.url)) }]],
  agent: { maxTurns: 4 },
})
for (const warning of harness.warnings) console.warn(`warning: ${warning}`)
harness.ctx.on('agent/call-end', (call) => console.log(`  ${call.name} -> ${call.code ?? 'ok'} in ${call.durationMs}ms`))

const outcome = await harness.agent.run('What is in my notes? Clear them afterwards.')
console.log(outcome.kind === 'completed' ? outcome.text : `the run ended ${outcome.kind}: ${outcome.error?.message ?? ''}`)
await harness.dispose()
