/**
 * What one streamed answer may keep. An assembler counts here everything it holds on to — the
 * text, each tool call's id, name and arguments — before it keeps it, and each tool call (or
 * content block) it starts. Past `maxSize` characters in all (the cap of a body read whole,
 * `MAX_BODY_BYTES`) or `maxParts` parts (`MAX_ANSWER_PARTS`) it throws
 * `ProviderBadResponseError`: the reading of the stream stops there and its connection closes.
 */
import { ProviderBadResponseError } from './errors.js'
import { MAX_ANSWER_PARTS, MAX_BODY_BYTES } from './limits.js'
import { failWith, type RequestSite } from './site.js'

/** The limits of one streamed answer; the defaults are the documented ones (tests lower them). */
export interface AnswerLimits {
  /** Characters of text, ids, names and arguments, all together. Default `MAX_BODY_BYTES`. */
  maxSize?: number
  /** Tool calls, or content blocks of any kind. Default `MAX_ANSWER_PARTS`. */
  maxParts?: number
}

/** Counts what one streamed answer keeps; throws once it is more than any model answer. */
export class AnswerBudget {
  private size = 0
  private parts = 0
  private readonly maxSize: number
  private readonly maxParts: number

  constructor(private readonly site: RequestSite, limits: AnswerLimits = {}) {
    this.maxSize = limits.maxSize ?? MAX_BODY_BYTES
    this.maxParts = limits.maxParts ?? MAX_ANSWER_PARTS
  }

  /** Counts `length` more characters the answer is about to keep; throws if that is past `maxSize`. */
  keep(length: number): void {
    this.size += length
    if (this.size > this.maxSize) {
      throw failWith(this.site, ProviderBadResponseError, `${this.site.baseURL} streamed an answer of more than ${this.maxSize} characters (its text and tool calls together), far more than any model answer; reading stopped there`)
    }
  }

  /** Counts one more tool call (or content block) the answer is about to start; throws if that is past `maxParts`. */
  part(): void {
    this.parts++
    if (this.parts > this.maxParts) {
      throw failWith(this.site, ProviderBadResponseError, `${this.site.baseURL} streamed an answer of more than ${this.maxParts} tool calls or content blocks, far more than any model answer; reading stopped there`)
    }
  }
}
