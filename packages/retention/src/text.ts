/**
 * Head, tail and head+tail of a text within a UTF-8 byte budget. Every function returns what
 * it kept and exactly how many bytes it left out, so that kept + omitted = total, byte for
 * byte. Nothing is ever cut inside a character: a 4-byte emoji is kept whole or not at all,
 * and the kept parts are always a prefix and a suffix of the input.
 */
import { checkBudget, checkRatio, headShare } from './budget.js'
import { prefixCut, suffixCut, utf8Length } from './utf8.js'

/** One kept piece of a text: a prefix (head) or a suffix (tail). */
export interface TextSlice {
  /** The kept text. */
  text: string
  /** UTF-8 bytes of `text`; never more than the budget. */
  keptBytes: number
  /** UTF-8 bytes of the input that were not kept: `totalBytes - keptBytes`. */
  omittedBytes: number
  /** UTF-8 bytes of the whole input. */
  totalBytes: number
}

/** The start and end of a text with the middle left out. */
export interface HeadTailText {
  /** A prefix of the input. The whole input when it fits. */
  head: string
  /** A suffix of the input, not overlapping `head`. Empty when the whole input fits. */
  tail: string
  headBytes: number
  tailBytes: number
  /** UTF-8 bytes of the middle that was left out: `totalBytes - headBytes - tailBytes`. */
  omittedBytes: number
  totalBytes: number
}

/** How `headTailBytes` splits its budget. */
export interface HeadTailOptions {
  /** The head's share of the budget, from 0 to 1 (default 0.5). Ignored when `headBudget` is set. */
  headRatio?: number
  /** An exact byte budget for the head (at most `maxBytes`); the tail gets what the head leaves. */
  headBudget?: number
}

/**
 * The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes.
 * Pure. Throws a `RangeError` when `maxBytes` is not a non-negative integer or Infinity.
 */
export function headBytes(text: string, maxBytes: number): TextSlice {
  checkBudget('maxBytes', maxBytes)
  const totalBytes = utf8Length(text)
  if (totalBytes <= maxBytes) return { text, keptBytes: totalBytes, omittedBytes: 0, totalBytes }
  const cut = prefixCut(text, maxBytes)
  return { text: text.slice(0, cut.index), keptBytes: cut.bytes, omittedBytes: totalBytes - cut.bytes, totalBytes }
}

/**
 * The longest suffix of `text` that fits in `maxBytes` UTF-8 bytes.
 * Pure. Throws a `RangeError` when `maxBytes` is not a non-negative integer or Infinity.
 */
export function tailBytes(text: string, maxBytes: number): TextSlice {
  checkBudget('maxBytes', maxBytes)
  const totalBytes = utf8Length(text)
  if (totalBytes <= maxBytes) return { text, keptBytes: totalBytes, omittedBytes: 0, totalBytes }
  const cut = suffixCut(text, maxBytes)
  return { text: text.slice(cut.index), keptBytes: cut.bytes, omittedBytes: totalBytes - cut.bytes, totalBytes }
}

/**
 * The start and the end of `text` within `maxBytes` UTF-8 bytes in total, the middle left out.
 * The head takes its share first (`headBudget`, or `headRatio` of the budget, rounded down);
 * the tail takes all that the head left, so a character too wide for the head's share goes
 * to the tail's budget. Pure. Throws a `RangeError` on a bad budget or ratio.
 */
export function headTailBytes(text: string, maxBytes: number, options: HeadTailOptions = {}): HeadTailText {
  checkBudget('maxBytes', maxBytes)
  const totalBytes = utf8Length(text)
  if (totalBytes <= maxBytes) {
    return { head: text, tail: '', headBytes: totalBytes, tailBytes: 0, omittedBytes: 0, totalBytes }
  }
  let share: number
  if (options.headBudget !== undefined) {
    checkBudget('headBudget', options.headBudget)
    share = Math.min(options.headBudget, maxBytes)
  } else {
    const ratio = options.headRatio ?? 0.5
    checkRatio('headRatio', ratio)
    share = headShare(maxBytes, ratio)
  }
  // totalBytes > maxBytes >= head + tail, so the two cuts can never cross.
  const head = prefixCut(text, share)
  const tail = suffixCut(text, maxBytes - head.bytes)
  return {
    head: text.slice(0, head.index),
    tail: text.slice(tail.index),
    headBytes: head.bytes,
    tailBytes: tail.bytes,
    omittedBytes: totalBytes - head.bytes - tail.bytes,
    totalBytes,
  }
}
