/**
 * How much a provider reads, and how long it waits for a silent server. A model's answer is
 * far below these sizes; a server that sends more is not the API (or is hostile), so reading
 * stops there with a clear error instead of filling the memory.
 */

const MiB = 1024 * 1024

/** The largest body read whole (a non-streamed answer, or a streamed request answered with JSON): 16 MiB. */
export const MAX_BODY_BYTES = 16 * MiB

/**
 * The most parts one streamed answer may have: tool calls, or (on a wire of content blocks)
 * blocks of any kind. A model's answer has a handful; 4096.
 */
export const MAX_ANSWER_PARTS = 4096

/** The largest server-sent event (its data lines, or one unfinished line), in characters: 16 Mi. */
export const MAX_SSE_EVENT_SIZE = 16 * MiB

/** How much of an error answer's body is read (to quote it); the rest is never downloaded: 64 KiB. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024

/** The default `idleTimeoutMs`: how long to wait for the headers, or for the next bytes of a body. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000

/** A size for a message: `16 MiB`, `64 KiB` or `N bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}
