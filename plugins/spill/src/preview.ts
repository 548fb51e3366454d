/**
 * The preview that replaces a spilled output: head, then a notice, then tail, in at most
 * `cap` UTF-8 bytes. The notice names the exact number of bytes left out, where they start,
 * the locator and the store's retrieval hint. Its size is bounded before the split (every
 * number it prints is at most the total), so the finished preview can never exceed the cap.
 */
import { headTailBytes, utf8Length } from '@rein/retention'

/** What the notice needs to know about the saved output. */
export interface NoticeFacts {
  omittedBytes: number
  /** The byte offset of the first omitted byte (= the head's size). */
  offset: number
  totalBytes: number
  locator: string
  retrievalHint: string
}

/** A finished preview and how it was cut. */
export interface Preview {
  text: string
  headBytes: number
  tailBytes: number
  omittedBytes: number
  totalBytes: number
}

/** The smallest head an error preview may have: the `Error: ` its first line starts with. */
const ERROR_PREFIX_BYTES = utf8Length('Error: ')

/** The notice placed between head and tail. */
export function noticeText(facts: NoticeFacts): string {
  return `\n\n[... ${facts.omittedBytes} bytes omitted here, starting at byte offset ${facts.offset} of ${facts.totalBytes}.`
    + ` The whole output is saved under locator ${JSON.stringify(facts.locator)}: ${facts.retrievalHint}. ...]\n\n`
}

/** The most bytes the notice can take for an output of `totalBytes`, with this locator and hint. */
export function maxNoticeBytes(totalBytes: number, locator: string, retrievalHint: string): number {
  return utf8Length(noticeText({ omittedBytes: totalBytes, offset: totalBytes, totalBytes, locator, retrievalHint }))
}

/**
 * The size of the smallest preview of an output of `totalBytes` with this locator and hint:
 * the notice alone, after the `Error: ` an error's preview keeps. No cap below it can hold a
 * preview; `buildPreview` at exactly this cap gives the notice alone.
 */
export function smallestPreviewBytes(totalBytes: number, saved: { locator: string, retrievalHint: string }, isError: boolean): number {
  return maxNoticeBytes(totalBytes, saved.locator, saved.retrievalHint) + (isError ? ERROR_PREFIX_BYTES : 0)
}

/**
 * Whether a cap could hold a preview at all, before anything is saved: the notice with an
 * empty locator and hint, plus the head an error needs. A true answer is confirmed by
 * `buildPreview` once the real locator is known.
 */
export function capCanHoldNotice(cap: number, totalBytes: number, isError: boolean): boolean {
  return cap >= smallestPreviewBytes(totalBytes, { locator: '', retrievalHint: '' }, isError)
}

/**
 * The preview of `text` (which is larger than `cap`), or undefined when the cap cannot hold
 * the notice. For an error, the head keeps the whole first line (`Error: ...`) when the
 * budget allows, and at least its `Error: ` prefix, so the result still reads as an error.
 */
export function buildPreview(text: string, cap: number, saved: { locator: string, retrievalHint: string },
  options: { isError?: boolean } = {}): Preview | undefined {
  const totalBytes = utf8Length(text)
  const budget = cap - maxNoticeBytes(totalBytes, saved.locator, saved.retrievalHint)
  if (budget < (options.isError ? ERROR_PREFIX_BYTES : 0)) return undefined
  let headBudget = Math.floor(budget / 2)
  if (options.isError) {
    const lineEnd = text.indexOf('\n')
    const firstLine = utf8Length(lineEnd < 0 ? text : text.slice(0, lineEnd + 1))
    headBudget = Math.max(headBudget, Math.min(firstLine, budget))
  }
  const split = headTailBytes(text, budget, { headBudget })
  const notice = noticeText({
    omittedBytes: split.omittedBytes, offset: split.headBytes, totalBytes, ...saved,
  })
  return {
    text: split.head + notice + split.tail,
    headBytes: split.headBytes,
    tailBytes: split.tailBytes,
    omittedBytes: split.omittedBytes,
    totalBytes,
  }
}
