/**
 * What a session id may be, in one place for every layer that names a session (this store,
 * and `@rein/queue`'s submit, cancel and worker), so that two ids are one session everywhere or
 * nowhere: a string of 1 to 512 UTF-16 code units, well-formed (no lone surrogate: PostgreSQL
 * would store it as U+FFFD, making `"a:\uD800"` the same session as `"a:\uFFFD"` while Redis
 * keeps them apart), without U+0000 (PostgreSQL's text cannot hold it).
 */

/** The longest session id, in UTF-16 code units (`id.length`). */
export const MAX_SESSION_ID_LENGTH = 512

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Why `id` is not a session id (a phrase to follow `"id" ` or `"session" `), or undefined when it is one. */
export function sessionIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string' || id.length === 0) {
    return `must be a non-empty string naming the session, got ${typeof id === 'string' ? 'an empty string' : typeof id}`
  }
  if (id.length > MAX_SESSION_ID_LENGTH) return `must be at most ${MAX_SESSION_ID_LENGTH} characters, got ${id.length}`
  const lone = LONE_SURROGATE.exec(id)
  if (lone) {
    return `must be well-formed Unicode, but has a lone surrogate (${codePoint(lone[0])} at index ${lone.index}), ` +
      'which PostgreSQL would store as U+FFFD: the id would name another session'
  }
  const nul = id.indexOf('\u0000')
  if (nul >= 0) return `must not contain U+0000 (at index ${nul}): PostgreSQL text cannot hold it`
  return undefined
}

function codePoint(char: string): string {
  return `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
}
