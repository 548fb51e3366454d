/**
 * A session store that takes secrets out of what is written to it. The agent imports no
 * redactor: the function is handed in (the loader passes `@rein/redact`'s for `agent.
 * redactSession`). Only text is rewritten, and only text that does not decide what ran:
 *   - the text blocks of a `tool/result`'s message and of its `additionalContexts`, and the
 *     text of every message (`content`), so a token a tool printed or the model repeated is
 *     not kept at rest;
 *   - never a call: ids, names and arguments (in `tool/call` entries and in an assistant
 *     message's `toolCalls`), codes, `meta`, turns and indexes are stored as given. Resume
 *     finds which calls ran by turn and index, reconciles or re-runs a started call with its
 *     logged arguments under a key made from its id, and `run_code` matches sub-calls by their
 *     arguments: changing any of these could change which calls run.
 * Every entry keeps its shape (a text block stays a text block), so a redacted session is
 * still a valid one and resumes. The agent shows the model only what the log holds, so a run
 * sees tool output redacted as it will be on resume.
 */
import type { ContentBlock, Message } from '@rein/kernel'
import type { NewSessionEntry, SessionStore } from './session.js'
import { newEntryProblem } from './session-entry.js'
import { headOf, tellsHead } from './store-head.js'

/** Takes secrets out of a text. */
export type TextRedactor = (text: string) => string

/** `store`, with every entry redacted by `redact` before it is appended (see the module header). */
export function redactedSession(store: SessionStore, redact: TextRedactor): SessionStore {
  const redacting: SessionStore = {
    id: store.id,
    load: () => store.load(),
    append: (entry) => {
      // An entry that is not valid goes on as it is, for the store to refuse with its own words.
      if (newEntryProblem(entry) !== undefined) return store.append(entry)
      let redacted: NewSessionEntry
      try {
        redacted = redactEntry(entry, redact)
      } catch (error) {
        return Promise.reject(error)
      }
      return store.append(redacted)
    },
  }
  if (store.close) redacting.close = () => store.close!()
  // Every entry goes to `store`, one for one: its last entry is this one's.
  tellsHead(redacting, () => headOf(store))
  return redacting
}

/** One entry with its text redacted; the entry itself when nothing changed. */
export function redactEntry(entry: NewSessionEntry, redact: TextRedactor): NewSessionEntry {
  switch (entry.type) {
    case 'message': {
      const message = redactMessage(entry.message, redact)
      return message === entry.message ? entry : { ...entry, message }
    }
    case 'tool/result': {
      const content = redactBlocks(entry.message.content, redact)
      const contexts = entry.additionalContexts && redactBlocks(entry.additionalContexts, redact)
      if (content === entry.message.content && contexts === entry.additionalContexts) return entry
      const out = { ...entry, message: { ...entry.message, content } }
      if (contexts !== undefined) out.additionalContexts = contexts
      return out
    }
    case 'tool/call':
    case 'approval/request': // the call's arguments, as on its tool/call entry
    case 'approval/answer':
    case 'turn/end':
    case 'state': // plugins' own facts (counts, answers), never tool output
      return entry
  }
}

function redactMessage(message: Message, redact: TextRedactor): Message {
  if (typeof message.content === 'string') {
    const content = redact(message.content)
    return content === message.content ? message : { ...message, content } as Message
  }
  const content = redactBlocks(message.content, redact)
  return content === message.content ? message : { ...message, content } as Message
}

function redactBlocks(blocks: ContentBlock[], redact: TextRedactor): ContentBlock[] {
  let out: ContentBlock[] | undefined
  blocks.forEach((block, i) => {
    const text = block.type === 'text' ? redact(block.text) : undefined
    const next = text === undefined || block.type !== 'text' || text === block.text ? block : { ...block, text }
    if (out === undefined && next !== block) out = blocks.slice(0, i)
    out?.push(next)
  })
  return out ?? blocks
}
