/**
 * Whether an entry fits in a row, checked before it is sent, so that one entry too big is
 * refused alone instead of failing its whole batch. PostgreSQL refuses a jsonb value in which
 * a string, or the data of an object or array, takes more than 268,435,455 bytes (2^28 - 1);
 * a batch goes as one jsonb array, so the entries of a batch together must fit that too. The
 * size is an upper bound on what jsonb makes of the entry's JSON text, from PostgreSQL's layout
 * (jsonb_util.c): each element costs a 4-byte header (a key another), an object or array a
 * 4-byte count, a string its UTF-8 bytes, a number at most 20 bytes (a `numeric` of a double's
 * 17 digits), and each object, array or number up to 3 bytes of padding. No JSON text makes
 * more than 6 bytes of jsonb per character (`1,` in an array: a header and an 8-byte numeric),
 * so an entry of up to about 33 million characters is known to fit without walking it.
 * Its text must also fit one statement (PostgreSQL takes at most 1 GB per message), and a
 * string of JavaScript.
 */

/** The limits, in bytes; tests lower them, nothing else changes them. */
export const limits = {
  /** The most data a jsonb string, object or array may hold (PostgreSQL's JENTRY_OFFLENMASK). */
  jsonbBytes: 268_435_455,
  /**
   * The most JSON text (the `entry` and `entry_text` columns, in UTF-8) one entry may send: well
   * under the 1 GB of a message to PostgreSQL with the rest of a batch, and under the longest
   * string V8 makes (2^29 - 24 characters) with the batch's brackets.
   */
  textBytes: 500 * 1024 * 1024,
}

// Bytes of jsonb per character of JSON text that no text exceeds (6 is the worst case), and room for the root's headers.
const BYTES_PER_CHAR = 8
const ROOT_BYTES = 16
// A number: up to 3 bytes of padding, an 8-byte numeric header and six 4-digit groups.
const NUMBER_BYTES = 3 + 8 + 12
// An object or array: up to 3 bytes of padding and its 4-byte count.
const CONTAINER_BYTES = 3 + 4
// A batch array's own count and padding, and each element's header in it.
export const BATCH_BYTES = CONTAINER_BYTES
export const ELEMENT_BYTES = 4

/**
 * An upper bound on the bytes of jsonb the JSON text `entry` (the `entry` column) makes.
 * Cheap unless the text is tens of millions of characters long: then it is parsed and walked.
 */
export function jsonbBytes(entry: string): number {
  const quick = entry.length * BYTES_PER_CHAR + ROOT_BYTES
  return quick + BATCH_BYTES + ELEMENT_BYTES <= limits.jsonbBytes ? quick : valueBytes(JSON.parse(entry))
}

/**
 * Why an entry cannot be stored for its size, or undefined when it can: `entry` and `entryText`
 * are its columns, `jsonb` what `jsonbBytes` gave for it. It must fit a batch of its own.
 */
export function entrySizeProblem(entry: string, entryText: string | null, jsonb: number): string | undefined {
  if (jsonb + BATCH_BYTES + ELEMENT_BYTES > limits.jsonbBytes) {
    return `it is too big for PostgreSQL's jsonb: up to ${jsonb} bytes as jsonb, over the ${limits.jsonbBytes} a jsonb value may hold`
  }
  // Only a text long enough to matter is measured (a character is at most 3 bytes of UTF-8).
  const chars = entry.length + (entryText?.length ?? 0)
  if (chars * 3 <= limits.textBytes) return undefined
  const bytes = Buffer.byteLength(entry) + (entryText === null ? 0 : Buffer.byteLength(entryText))
  if (bytes > limits.textBytes) {
    return `it is too big to send to PostgreSQL: ${bytes} bytes of JSON text, over the ${limits.textBytes} one entry may take`
  }
  return undefined
}

/**
 * An upper bound on the bytes a JSON value (as `JSON.parse` gives it) takes as an element of a
 * jsonb object or array, its own header not counted. Walked without recursion: any depth.
 */
export function valueBytes(value: unknown): number {
  let bytes = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const next = stack.pop()
    if (typeof next === 'string') bytes += Buffer.byteLength(next)
    else if (typeof next === 'number') bytes += NUMBER_BYTES
    else if (Array.isArray(next)) {
      bytes += CONTAINER_BYTES + ELEMENT_BYTES * next.length
      for (const element of next) stack.push(element)
    } else if (typeof next === 'object' && next !== null) {
      bytes += CONTAINER_BYTES
      for (const [key, inner] of Object.entries(next)) {
        bytes += 2 * ELEMENT_BYTES + Buffer.byteLength(key)
        stack.push(inner)
      }
    }
  }
  return bytes
}
