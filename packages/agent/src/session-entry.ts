/**
 * The shape of a session entry (`message`, `tool/call`, `tool/result`, `turn/end`, `state`,
 * `approval/request`, `approval/answer`), checked in one place: the JSONL reader, the agent's load of
 * any store and other readers of a log all ask `sessionEntryProblem`, so a session is either
 * read whole and well-formed or refused at the first thing wrong. Extra fields are allowed
 * (a newer writer may add facts); a known field of the wrong shape, an unknown `type` or a
 * `seq` out of order is not. Problems name fields and describe values by kind only: they
 * never quote the log's text, which may hold secrets.
 */
import { isContentBlock, snapshot } from '@rein/kernel'

type Problem = string | undefined
type Fields = Record<string, unknown>

const TYPES = '"message", "tool/call", "tool/result", "turn/end", "state", "approval/request" or "approval/answer"'
const ROLES = '"system", "user", "assistant" or "tool"'
const BLOCK = 'a content block ({ type: "text", text } or { type: "image", data, mimeType })'

/**
 * What is wrong with `value` as an entry of a session log, or undefined when it is a valid
 * one. `previousSeq` is the `seq` of the entry before it (none for the first entry): each
 * entry's `seq` must be exactly one more.
 */
export function sessionEntryProblem(value: unknown, previousSeq?: number): string | undefined {
  if (!isObject(value)) return `entry is ${describe(value)}, expected an object with "seq" and "type"`
  const seq = value.seq
  const problem = field('seq', seq, 'a whole number of at least 0', (v) => isWhole(v, 0))
  if (problem) return problem
  if (previousSeq !== undefined && seq !== previousSeq + 1) {
    return `"seq" is ${seq as number}, expected ${previousSeq + 1} (one more than the entry before it)`
  }
  return shapeProblem(value)
}

/**
 * What is wrong with an entry about to be appended (its `seq` is the store's to assign), or
 * undefined: a store asks it before writing, so that it never stores what a load would refuse.
 */
export function newEntryProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `entry is ${describe(value)}, expected an object with "type"`
  return shapeProblem(value)
}

function shapeProblem(entry: Fields): Problem {
  const common = field('at', entry.at, 'a time in ms since the epoch', isFiniteNumber, true)
  if (common) return common
  switch (entry.type) {
    case 'message':
      return field('turn', entry.turn, 'a whole number of at least 1', (v) => isWhole(v, 1), true)
        ?? messageProblem(entry.message, 'message')
        ?? callsTurnProblem(entry)
    case 'tool/call':
      return turnAndIndex(entry)
        ?? callProblem(entry.call, 'call')
        ?? oneOf('mode', entry.mode, ['parallel', 'exclusive'], true)
    case 'tool/result':
      return turnAndIndex(entry)
        ?? toolMessageProblem(entry.message, 'message')
        ?? field('code', entry.code, 'a string', isString, true)
        ?? contentProblem(entry.additionalContexts, 'additionalContexts', false, true)
        ?? field('concludesTurn', entry.concludesTurn, 'true', (v) => v === true, true)
        ?? field('endsRun', entry.endsRun, 'true', (v) => v === true, true)
        ?? timingProblem(entry.timing)
        ?? field('meta', entry.meta, 'an object', isObject, true)
        ?? field('value', entry.value, 'a JSON value', isJsonValue, true)
    case 'turn/end':
      return field('turn', entry.turn, 'a whole number of at least 1', (v) => isWhole(v, 1))
        ?? oneOf('outcome', entry.outcome, ['committed', 'aborted', 'repaired'])
    case 'state':
      return field('plugin', entry.plugin, 'a non-empty string (the plugin the state belongs to)', (v) => isString(v) && v !== '')
        ?? field('key', entry.key, 'a string', isString)
        ?? field('value', entry.value, 'a JSON value', isJsonValue)
    case 'approval/request':
      return field('id', entry.id, 'a non-empty string (the request\'s id)', isId)
        ?? turnAndIndex(entry)
        ?? field('callId', entry.callId, 'a string', isString)
        ?? field('tool', entry.tool, 'a string', isString)
        ?? field('arguments', entry.arguments, 'an object of JSON values', (v) => isObject(v) && isJsonValue(v))
        ?? field('rule', entry.rule, 'a string', isString)
        ?? field('reason', entry.reason, 'a string', isString, true)
        ?? field('expiresAt', entry.expiresAt, 'a time in ms since the epoch', isFiniteNumber, true)
        ?? field('subCall', entry.subCall, 'an object { id, tool, arguments } (the sub-call that asked)', isSubCall, true)
    case 'approval/answer':
      return field('id', entry.id, 'a non-empty string (the request\'s id)', isId)
        ?? oneOf('answer', entry.answer, ['allow-once', 'allow-session', 'deny'])
        ?? field('by', entry.by, 'a string', isString, true)
        ?? field('at', entry.at, 'a time in ms since the epoch', isFiniteNumber)
    case undefined:
      return `"type" is missing, expected ${TYPES}`
    default:
      return `"type" is ${describe(entry.type, true)}, expected ${TYPES}`
  }
}

/**
 * An assistant message with tool calls must say its `turn`: its calls' `tool/call` and
 * `tool/result` entries are found by that turn, and without it the calls could never be
 * answered or repaired.
 */
function callsTurnProblem(entry: Fields): Problem {
  const message = entry.message as Fields
  const calls = message.role === 'assistant' ? message.toolCalls : undefined
  if (entry.turn !== undefined || !Array.isArray(calls) || calls.length === 0) return undefined
  return '"turn" is missing, expected a whole number of at least 1 (an assistant message with tool calls carries its turn)'
}

function turnAndIndex(entry: Fields): Problem {
  return field('turn', entry.turn, 'a whole number of at least 1', (v) => isWhole(v, 1))
    ?? field('index', entry.index, 'a whole number of at least 0', (v) => isWhole(v, 0))
}

function messageProblem(message: unknown, at: string): Problem {
  if (!isObject(message)) return objectProblem(message, at, 'a message object with a "role"')
  switch (message.role) {
    case 'system':
      return field(`${at}.content`, message.content, 'a string', isString)
    case 'user':
      return contentProblem(message.content, `${at}.content`, true)
    case 'assistant':
      return field(`${at}.content`, message.content, 'a string', isString)
        ?? toolCallsProblem(message.toolCalls, `${at}.toolCalls`)
        ?? field(`${at}.usage`, message.usage, 'an object', isObject, true)
    case 'tool':
      return toolMessageProblem(message, at)
    case undefined:
      return `"${at}.role" is missing, expected ${ROLES}`
    default:
      return `"${at}.role" is ${describe(message.role, true)}, expected ${ROLES}`
  }
}

function toolMessageProblem(message: unknown, at: string): Problem {
  if (!isObject(message)) return objectProblem(message, at, 'a tool message object')
  return oneOf(`${at}.role`, message.role, ['tool'])
    ?? field(`${at}.toolCallId`, message.toolCallId, 'a string', isString)
    ?? contentProblem(message.content, `${at}.content`, false)
    ?? field(`${at}.isError`, message.isError, 'true or false', (v) => typeof v === 'boolean')
}

function toolCallsProblem(calls: unknown, at: string): Problem {
  if (calls === undefined) return undefined
  if (!Array.isArray(calls)) return `"${at}" must be an array of tool calls, got ${describe(calls)}`
  for (let i = 0; i < calls.length; i++) {
    const problem = callProblem(calls[i], `${at}[${i}]`)
    if (problem) return problem
  }
  return undefined
}

/**
 * A tool call: string `id` and `name`. Its `arguments` are whatever the model sent (a JSON
 * string, an object, or a value the scheduler answered INVALID_ARGS), so any value is kept.
 */
function callProblem(call: unknown, at: string): Problem {
  if (!isObject(call)) return objectProblem(call, at, 'a tool call object with string "id" and "name"')
  return field(`${at}.id`, call.id, 'a string', isString) ?? field(`${at}.name`, call.name, 'a string', isString)
}

/** Content: an array of content blocks, or (where `text` allows) a string. */
function contentProblem(content: unknown, at: string, text: boolean, optional = false): Problem {
  if (content === undefined && optional) return undefined
  if (text && typeof content === 'string') return undefined
  const expected = text ? 'a string or an array of content blocks' : 'an array of content blocks'
  if (!Array.isArray(content)) return field(at, content, expected, () => false)
  const bad = content.findIndex((block) => !isContentBlock(block))
  return bad === -1 ? undefined : `"${at}[${bad}]" must be ${BLOCK}, got ${describe(content[bad])}`
}

function timingProblem(timing: unknown): Problem {
  if (timing === undefined) return undefined
  if (!isObject(timing)) return objectProblem(timing, 'timing', 'an object of times')
  const time = (key: string, optional: boolean) =>
    field(`timing.${key}`, timing[key], 'a time in ms since the epoch', isFiniteNumber, optional)
  return time('startedAt', false) ?? time('bodyStartedAt', true) ?? time('bodyEndedAt', true) ?? time('finalAt', false)
}

/** `"<at>" is missing, expected ...` or `"<at>" must be ..., got <kind>`; undefined when `ok`. */
function field(at: string, value: unknown, expected: string, ok: (value: unknown) => boolean, optional = false): Problem {
  if (value === undefined) return optional ? undefined : `"${at}" is missing, expected ${expected}`
  return ok(value) ? undefined : `"${at}" must be ${expected}, got ${describe(value)}`
}

/** A field that holds one of a few words (an unknown word is shown: it is one of ours, misspelt). */
function oneOf(at: string, value: unknown, words: string[], optional = false): Problem {
  if (value === undefined ? optional : words.includes(value as string)) return undefined
  // Only a problem spells the words out: every entry of every append passes here.
  const expected = words.map((w) => `"${w}"`).join(', ').replace(/, ([^,]*)$/, ' or $1')
  return value === undefined ? `"${at}" is missing, expected ${expected}` : `"${at}" must be ${expected}, got ${describe(value, true)}`
}

function objectProblem(value: unknown, at: string, expected: string): string {
  return value === undefined ? `"${at}" is missing, expected ${expected}` : `"${at}" must be ${expected}, got ${describe(value)}`
}

/**
 * A value by its kind: numbers and booleans as they are, text as "a string" (it may be a
 * secret), except a short lowercase `word` where a field holds one of a few words.
 */
function describe(value: unknown, word = false): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return String(value)
    case 'string':
      return word && /^[a-z][a-z/-]{0,19}$/.test(value) ? `"${value}"` : 'a string'
    case 'object':
      return 'an object'
    default:
      return typeof value
  }
}

/** A value JSON can carry exactly (a JSON reader's output always is one). */
function isJsonValue(value: unknown): boolean {
  return snapshot(value).ok
}

function isSubCall(value: unknown): boolean {
  return isObject(value) && isString(value.id) && value.id !== '' && isString(value.tool) && isObject(value.arguments) && isJsonValue(value.arguments)
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function isString(value: unknown): value is string {
  return typeof value === 'string'
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function isWhole(value: unknown, min: number): value is number {
  return Number.isInteger(value) && (value as number) >= min
}
