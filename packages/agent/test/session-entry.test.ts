import { describe, expect, it } from 'vitest'
import { sessionEntryProblem } from '../src/index.js'

const text = (t: string) => ({ type: 'text', text: t })
const toolMessage = { role: 'tool', toolCallId: 'c1', content: [text('fine')], isError: false }

/** Entries of every type as the agent writes them, and as older or newer writers may. */
const valid: [string, unknown][] = [
  ['a system message', { seq: 1, type: 'message', message: { role: 'system', content: 'be terse' } }],
  ['a user message of text', { seq: 1, type: 'message', message: { role: 'user', content: 'go' }, at: 1_700_000_000_000 }],
  ['a user message of content blocks', { seq: 1, type: 'message', turn: 2, message: { role: 'user', content: [text('ctx'), { type: 'image', data: 'AA==', mimeType: 'image/png' }] } }],
  ['an assistant message with calls, usage and no arguments on one call', {
    seq: 1, type: 'message', turn: 1,
    message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a"}' }, { id: 'c2', name: 'read' }], usage: { inputTokens: 3 } },
  }],
  ['a call whose model arguments are not an object (the scheduler answered INVALID_ARGS)', {
    seq: 1, type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: 42 }] },
  }],
  ['an assistant message without calls and without turn', { seq: 1, type: 'message', message: { role: 'assistant', content: 'done' } }],
  ['an assistant message with an empty toolCalls and without turn', { seq: 1, type: 'message', message: { role: 'assistant', content: '', toolCalls: [] } }],
  ['a tool/call', { seq: 0, type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: { path: 'a' } }, mode: 'parallel' }],
  ['a tool/result with every optional fact', {
    seq: 1, type: 'tool/result', turn: 1, index: 0, message: toolMessage, code: 'X', additionalContexts: [text('more')], concludesTurn: true,
    timing: { startedAt: 1, bodyStartedAt: 2, bodyEndedAt: 3, finalAt: 4 }, meta: { attempts: 2 }, at: 5,
  }],
  ['an older tool/result with durationMs', { seq: 1, type: 'tool/result', turn: 1, index: 0, message: { ...toolMessage, isError: true }, durationMs: 120 }],
  ['a turn/end', { seq: 1, type: 'turn/end', turn: 1, outcome: 'repaired' }],
  ['a plugin\'s state', { seq: 1, type: 'state', plugin: 'budget', key: 'calls', value: { n: [1, null, 'x'] }, at: 5 }],
  ['a plugin\'s state of null', { seq: 1, type: 'state', plugin: 'budget', key: '', value: null }],
]

/** Each value, the seq of the entry before it, and exactly what is wrong. */
const invalid: [string, unknown, number | undefined, string][] = [
  ['null', null, 3, 'entry is null, expected an object with "seq" and "type"'],
  ['an array', [1], undefined, 'entry is an array, expected an object with "seq" and "type"'],
  ['no seq', { type: 'turn/end', turn: 1, outcome: 'committed' }, undefined, '"seq" is missing, expected a whole number of at least 0'],
  ['a negative seq', { seq: -1, type: 'turn/end', turn: 1, outcome: 'committed' }, undefined, '"seq" must be a whole number of at least 0, got -1'],
  ['a seq out of order', { seq: 5, type: 'turn/end', turn: 1, outcome: 'committed' }, 3, '"seq" is 5, expected 4 (one more than the entry before it)'],
  ['a repeated seq', { seq: 3, type: 'turn/end', turn: 1, outcome: 'committed' }, 3, '"seq" is 3, expected 4 (one more than the entry before it)'],
  ['no type', { seq: 1 }, undefined, '"type" is missing, expected "message", "tool/call", "tool/result", "turn/end", "state", "approval/request" or "approval/answer"'],
  ['an unknown type', { seq: 1, type: 'note' }, undefined, '"type" is "note", expected "message", "tool/call", "tool/result", "turn/end", "state", "approval/request" or "approval/answer"'],
  ['a state without its plugin', { seq: 1, type: 'state', key: 'k', value: 1 }, undefined,
    '"plugin" is missing, expected a non-empty string (the plugin the state belongs to)'],
  ['a state of an empty plugin', { seq: 1, type: 'state', plugin: '', key: 'k', value: 1 }, undefined,
    '"plugin" must be a non-empty string (the plugin the state belongs to), got a string'],
  ['a state with a number key', { seq: 1, type: 'state', plugin: 'p', key: 3, value: 1 }, undefined, '"key" must be a string, got 3'],
  ['a state without its value', { seq: 1, type: 'state', plugin: 'p', key: 'k' }, undefined, '"value" is missing, expected a JSON value'],
  ['a message without its message', { seq: 1, type: 'message', turn: 1 }, undefined, '"message" is missing, expected a message object with a "role"'],
  ['a message of an unknown role', { seq: 1, type: 'message', message: { role: 'robot', content: '' } }, undefined,
    '"message.role" is "robot", expected "system", "user", "assistant" or "tool"'],
  ['a string turn', { seq: 1, type: 'message', turn: '1', message: { role: 'user', content: 'go' } }, undefined,
    '"turn" must be a whole number of at least 1, got a string'],
  ['user content that is a number', { seq: 1, type: 'message', message: { role: 'user', content: 7 } }, undefined,
    '"message.content" must be a string or an array of content blocks, got 7'],
  ['assistant content that is blocks', { seq: 1, type: 'message', turn: 1, message: { role: 'assistant', content: [text('x')] } }, undefined,
    '"message.content" must be a string, got an array'],
  ['a null tool call', { seq: 1, type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [null] } }, undefined,
    '"message.toolCalls[0]" must be a tool call object with string "id" and "name", got null'],
  ['a tool call without an id', { seq: 1, type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ name: 'read' }] } }, undefined,
    '"message.toolCalls[0].id" is missing, expected a string'],
  ['an assistant message with tool calls but no turn', { seq: 1, type: 'message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read' }] } }, undefined,
    '"turn" is missing, expected a whole number of at least 1 (an assistant message with tool calls carries its turn)'],
  ['toolCalls that is not an array', { seq: 1, type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: {} } }, undefined,
    '"message.toolCalls" must be an array of tool calls, got an object'],
  ['a tool/call without index', { seq: 1, type: 'tool/call', turn: 1, call: { id: 'c1', name: 'read' } }, undefined,
    '"index" is missing, expected a whole number of at least 0'],
  ['a tool/call of an unknown mode', { seq: 1, type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read' }, mode: 'eager' }, undefined,
    '"mode" must be "parallel" or "exclusive", got "eager"'],
  ['a tool/result without isError', { seq: 1, type: 'tool/result', turn: 1, index: 0, message: { role: 'tool', toolCallId: 'c1', content: [] } }, undefined,
    '"message.isError" is missing, expected true or false'],
  ['a tool/result with a malformed block', { seq: 1, type: 'tool/result', turn: 1, index: 0, message: { ...toolMessage, content: [text('a'), { type: 'text' }] } }, undefined,
    '"message.content[1]" must be a content block ({ type: "text", text } or { type: "image", data, mimeType }), got an object'],
  ['a tool/result with string content', { seq: 1, type: 'tool/result', turn: 1, index: 0, message: { ...toolMessage, content: 'fine' } }, undefined,
    '"message.content" must be an array of content blocks, got a string'],
  ['a tool/result of another role', { seq: 1, type: 'tool/result', turn: 1, index: 0, message: { ...toolMessage, role: 'user' } }, undefined,
    '"message.role" must be "tool", got "user"'],
  ['a tool/result timing without finalAt', { seq: 1, type: 'tool/result', turn: 1, index: 0, message: toolMessage, timing: { startedAt: 1 } }, undefined,
    '"timing.finalAt" is missing, expected a time in ms since the epoch'],
  ['a turn/end of an unknown outcome', { seq: 1, type: 'turn/end', turn: 1, outcome: 'failed' }, undefined,
    '"outcome" must be "committed", "aborted" or "repaired", got "failed"'],
  ['an at that is text', { seq: 1, type: 'turn/end', turn: 1, outcome: 'committed', at: '2024' }, undefined,
    '"at" must be a time in ms since the epoch, got a string'],
]

describe('sessionEntryProblem', () => {
  it.each(valid)('accepts %s', (_name, entry) => {
    expect(sessionEntryProblem(entry)).toBeUndefined()
  })

  it.each(invalid)('names what is wrong with %s', (_name, entry, previousSeq, problem) => {
    expect(sessionEntryProblem(entry, previousSeq)).toBe(problem)
  })

  it('never repeats text from the entry, which may hold a secret', () => {
    const secret = 'Bearer sk-live-0123456789abcdef'
    const problems = [
      { seq: 1, type: secret },
      { seq: 1, type: 'message', message: { role: secret, content: '' } },
      { seq: 1, type: 'turn/end', turn: secret, outcome: 'committed' },
      { seq: 1, type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read' }, mode: secret },
    ].map((entry) => sessionEntryProblem(entry))
    expect(problems.every((p) => p !== undefined && !p.includes('sk-live'))).toBe(true)
  })
})
