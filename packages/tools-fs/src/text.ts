/**
 * Decoding a file's bytes as UTF-8 exactly. A byte sequence that is not UTF-8 would come back
 * as U+FFFD and be written back as that, so an edit of such a file would change bytes it
 * never meant to touch; these helpers say so instead. A byte order mark is kept as text.
 */

const exact = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The text `bytes` encode, or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return exact.decode(bytes)
  } catch {
    return undefined
  }
}
