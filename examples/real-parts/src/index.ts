/**
 * `@rein/example-real-parts`: a scripted Chat Completions server on 127.0.0.1, so that the
 * real `@rein/provider-openai` (and everything behind it: the agent, plugins, tools, MCP
 * servers, the CLI) can run without a key or a network. The tests of this package use it to
 * check rein end to end; `examples/deepseek.rein.yaml` is the same set-up with a real model.
 */
export { startChatServer, type ChatServer, type ChatStep, type ReceivedRequest } from './chat-server.js'
export {
  argumentsText, completion, streamEvents,
  type ChunkOptions, type ScriptedAnswer, type ScriptedToolCall, type WireMessage, type WireRequest,
} from './chat-wire.js'
export { toolMessages } from './requests.js'
