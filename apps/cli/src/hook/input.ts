/**
 * The JSON Claude Code hands a `PreToolUse` / `PostToolUse` hook on stdin, read and checked
 * before anything else runs. Every problem is a `HookInputError` whose message names the field
 * and what was expected; the hook answers it with exit 2, so a malformed call never gets through.
 */
import { isAbsolute } from 'node:path'

/** The most stdin the hook reads (a `Write` of a large file carries the whole file). */
export const MAX_INPUT_BYTES = 4 * 1024 * 1024

/** The events the hook answers. */
export const EVENTS = ['PreToolUse', 'PostToolUse'] as const
export type HookEvent = typeof EVENTS[number]

/** A tool name the hook accepts: what Claude Code's tools and `mcp__<server>__<tool>` are made of. */
const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/

/** One hook call, checked. */
export interface HookInput {
  event: HookEvent
  toolName: string
  toolInput: Record<string, unknown>
  toolUseId: string
  sessionId: string | undefined
  /** The host's working directory: relative paths and `./x` rules are read from here. */
  cwd: string
  /** PostToolUse: what the tool answered. */
  toolResponse: unknown
}

/** A hook input rein cannot act on; the message says which field and why. */
export class HookInputError extends Error {
  override readonly name = 'HookInputError'
}

/** Reads `stream` whole, refusing more than `max` bytes (it stops reading at once). */
export async function readAll(stream: AsyncIterable<Uint8Array | string>, max = MAX_INPUT_BYTES): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk)
    size += buffer.length
    if (size > max) throw new HookInputError(`the hook input on stdin is larger than ${max} bytes; rein refuses the call rather than judge part of it`)
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The checked hook input in `text`, or a `HookInputError`. `fallbackCwd` is used when the input names none. */
export function parseHookInput(text: string, fallbackCwd: string): HookInput {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    const hint = text.trim() === '' ? 'stdin was empty' : (error as Error).message
    throw new HookInputError(`the hook input on stdin is not JSON (${hint}); Claude Code sends one JSON object per call`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new HookInputError('the hook input must be a JSON object')
  const input = raw as Record<string, unknown>
  const event = input.hook_event_name
  if (!EVENTS.includes(event as HookEvent)) {
    throw new HookInputError(`hook_event_name ${show(event)} is not one rein answers; use rein hook claude-code for ${EVENTS.join(' and ')} only`)
  }
  const toolName = input.tool_name
  if (typeof toolName !== 'string' || !TOOL_NAME.test(toolName)) {
    throw new HookInputError(`tool_name ${show(toolName)} is not a tool name (letters, digits, "_", "-" and ".", at most 200)`)
  }
  const toolInput = input.tool_input
  if (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput)) {
    throw new HookInputError(`tool_input of ${toolName} is ${toolInput === undefined ? 'missing' : show(toolInput)}; it must be the tool's arguments as an object`)
  }
  const cwd = input.cwd === undefined ? fallbackCwd : input.cwd
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) throw new HookInputError(`cwd ${show(cwd)} must be an absolute path`)
  return {
    event: event as HookEvent,
    toolName,
    toolInput: toolInput as Record<string, unknown>,
    toolUseId: typeof input.tool_use_id === 'string' && input.tool_use_id ? input.tool_use_id : 'claude-code-call',
    sessionId: typeof input.session_id === 'string' && input.session_id ? input.session_id : undefined,
    cwd,
    toolResponse: input.tool_response,
  }
}

/** A value in a message, short. */
function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
