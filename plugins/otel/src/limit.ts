/**
 * Bounds on what a span carries, with the audit log's cuts (`@rein/redact`'s `cutText` and
 * `cutStrings`: a string past its bound is cut, never inside a surrogate pair, and marked
 * `…[N more chars]`; 0 means no limit). Content is redacted as a value (each string and key on
 * its own, never the JSON text, so a pattern cannot run across fields or miss a secret behind
 * an escape), a string holding JSON text likewise (`jsonAware`), then each string is cut, then
 * it is written as JSON and the whole text is cut to its own bound. Nothing here modifies its
 * input or throws on a value JSON cannot hold.
 */
import { cutStrings, cutText, redactValue, type Redactor } from '@rein/redact'

/** Default bound on each string of content, each string attribute and each status message. */
export const DEFAULT_MAX_STRING_LENGTH = 4096
/** Default bound on the whole JSON text of one content attribute. */
export const DEFAULT_MAX_CONTENT_LENGTH = 65536
/** Default bound on a span name and on the tool, agent and model names. */
export const DEFAULT_MAX_NAME_LENGTH = 256

/**
 * `redact` for the strings of content, which often hold JSON text themselves (a tool call's
 * arguments as the model wrote them, a tool result as the model was shown it): a string that
 * is a JSON object or array is redacted as a value and written again (when that changed
 * anything), since in its text an escape such as `\n` would stand right before a secret.
 */
export function jsonAware(redact: Redactor): Redactor {
  const deep: Redactor = (text) => {
    const first = text.trimStart()[0]
    if (first === '{' || first === '[') {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        return redact(text)
      }
      if (typeof parsed === 'object' && parsed !== null) {
        const clean = redactValue(parsed, deep)
        return clean === parsed ? text : JSON.stringify(clean)
      }
    }
    return redact(text)
  }
  return deep
}

/** How a content attribute is bounded. */
export interface ContentLimits {
  /** Each string (and key) of the value. */
  maxStringLength: number
  /** The whole JSON text. */
  maxContentLength: number
}

/**
 * The JSON text of `value` for a content attribute: redacted string by string, each string cut,
 * the text cut. A value JSON cannot hold (a cycle, a BigInt, `undefined`) is recorded as its
 * `String()`, redacted and cut as a text.
 */
export function contentText(value: unknown, redact: Redactor, limits: ContentLimits): string {
  let plain: unknown
  try {
    // JSON's own view of the value (toJSON applied, functions and symbols gone, no cycles).
    const text = JSON.stringify(value)
    plain = text === undefined ? undefined : JSON.parse(text)
    if (text === undefined) throw new TypeError('no JSON')
  } catch {
    let text: string
    try {
      text = String(value)
    } catch {
      text = Object.prototype.toString.call(value)
    }
    return cutText(cutText(redact(text), limits.maxStringLength), limits.maxContentLength)
  }
  const clean = cutStrings(redactValue(plain, jsonAware(redact)), limits.maxStringLength)
  return cutText(JSON.stringify(clean), limits.maxContentLength)
}
