/**
 * What a server said when it refused a request: its explanation read out of an error body
 * (JSON in the provider's own shape, or plain text), and that text made quotable — redacted,
 * white space folded, cut to `MAX_QUOTE` characters with the rest counted. Pure: no I/O.
 */
import type { RequestSite } from './site.js'

/** The longest server text quoted in a message. */
export const MAX_QUOTE = 500

/** The fields a server's error may carry; which ones a wire fills in is the provider's to read. */
export interface ServerError {
  message: string
  /** The server's error type (`invalid_request_error`, `overloaded_error`...). */
  type?: string
  /** The server's error code (`context_length_exceeded`...). */
  code?: string
  /** The server's request id, for support. */
  requestId?: string
}

/** Reads a body's text: what `read` finds in it when it is JSON, else the text itself, trimmed. */
export function readErrorBody(body: string, read: (value: unknown) => ServerError | undefined): ServerError {
  let parsed: unknown
  try { parsed = JSON.parse(body) } catch { return { message: body.trim() } }
  return read(parsed) ?? { message: body.trim() }
}

/** The server's text, redacted and shortened, ready to quote. */
export function quote(text: string, site: RequestSite): string {
  // Folding white space may join the words of a secret again, so redact after it too.
  const clean = site.redact(site.redact(text).replace(/\s+/g, ' ').trim())
  if (clean === '') return '(empty body)'
  return clean.length > MAX_QUOTE ? `${clean.slice(0, MAX_QUOTE)}… (${clean.length - MAX_QUOTE} more characters)` : clean
}
