// The kernel alone: two tools, one policy plugin, three calls through the whole pipeline.
// Run from the repository root: npx -y pnpm@10 --filter @rein/example-quickstart start (after tsc -b).
// Anywhere else: copy this file, `npm install @rein/kernel cordis`, then `node run.mjs`.
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool } from '@rein/kernel'

const ctx = new Context()
ctx.plugin(kernel)
ctx.plugin({
  name: 'no-deletes',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.guard((exec) => exec.name === 'delete' ? 'deleting is never allowed here' : undefined)
    ctx.on('tools/result', (exec, result) => {
      console.log(`${exec.id} ${exec.name} -> ${result.isError ? result.error.info?.code : 'ok'} in ${Date.now() - exec.startedAt}ms`)
    })
  },
})
await ctx.start()

ctx.tools.register(defineTool({
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
  output: { schema: { type: 'integer' } },
  execute: ({ a, b }) => a + b,
}))
ctx.tools.register(defineTool({
  name: 'delete',
  description: 'Delete a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: () => 'deleted',
}))

for (const call of [
  { id: 'call_1', name: 'add', arguments: '{"a": 2, "b": 40}' },
  { id: 'call_2', name: 'add', arguments: '{"a": 2}' },
  { id: 'call_3', name: 'delete', arguments: { path: 'notes.txt' } },
]) {
  const result = await ctx.tools.execute(call)
  console.log('  model sees:', result.content.map((block) => block.text).join(' '))
}
await ctx.stop()
