/**
 * Small pieces every provider test needs: draining a `stream(req)` to what arrived and the
 * error that ended it, and a small request with a system prompt, a user turn and one tool.
 */
import type { GenerateRequest, StreamEvent } from '@rein/kernel'

/** Drains `events`; returns what arrived and the error that ended it, if any. Never throws. */
export async function drainStream(events: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[], error?: unknown }> {
  const seen: StreamEvent[] = []
  try {
    for await (const e of events) seen.push(e)
    return { events: seen }
  } catch (error) {
    return { events: seen, error }
  }
}

/** A small request: a system prompt, a user turn and one `read_file` tool. */
export function oneToolRequest(signal?: AbortSignal): GenerateRequest {
  return {
    messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Read a.txt and b.txt' }],
    tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
    ...(signal ? { signal } : {}),
  }
}
