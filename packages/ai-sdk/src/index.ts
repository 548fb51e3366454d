/**
 * `@rein/ai-sdk`: rein's tool-call pipeline inside the Vercel AI SDK. `reinTools(harness)` is
 * a `ToolSet` for `generateText` / `streamText`: each call the model makes runs through
 * `ctx.tools.execute`, so every plugin of the harness (permissions, timeout, retry, cache,
 * spill, audit) applies, and the model sees the text rein would show it.
 *
 *   const { text } = await generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(5), prompt })
 */
export { reinTools, type ReinToolsHarness, type ReinToolsOptions, type ToolsLike } from './tools.js'
export { modelText } from './text.js'
export { ReinToolError } from './errors.js'
