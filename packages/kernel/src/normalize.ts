/**
 * What a hook handler returns, read once into a fresh plain object. A handler may return a
 * proxy, an object with getters, or something that answers `kind: 'allow'` to a check and
 * `'deny'` a moment later; the pipeline only ever acts on the copy made here, so what was
 * checked is what is used. Each function returns the copy, or a string saying what is wrong,
 * and never throws. Copies the kernel made itself are remembered and pass through for free.
 */
import { messageOf, readSafely } from './hostile.js'
import { snapshot } from './json.js'
import { CheckedMark } from './marks.js'
import type {
  ContentBlock, Json, PostToolDecision, PreToolDecision, ToolError, ToolExecutionResult,
} from './types.js'


/** Marks a result the kernel built from checked parts, so later layers skip the copy. */
export function trusted<T extends ToolExecutionResult>(result: T): T {
  Object.freeze(CheckedMark.add(result))
  return result
}

/** A fresh, frozen list of well-formed content blocks, or what is wrong with `value`. */
export function contentOf(value: unknown, what: string): ContentBlock[] | string {
  if (typeof value === 'object' && value !== null && CheckedMark.has(value)) return value as ContentBlock[]
  try {
    if (!Array.isArray(value)) return `${what} must be an array of content blocks`
    const length = value.length
    const out: ContentBlock[] = new Array(length)
    for (let i = 0; i < length; i++) {
      const block: unknown = value[i]
      const type = readSafely(block, 'type')
      if (type === 'text') {
        const text = readSafely(block, 'text')
        if (typeof text !== 'string') return `${what}[${i}].text must be a string`
        out[i] = Object.freeze({ type, text })
      } else if (type === 'image') {
        const data = readSafely(block, 'data')
        const mimeType = readSafely(block, 'mimeType')
        if (typeof data !== 'string' || typeof mimeType !== 'string') return `${what}[${i}] must have string data and mimeType`
        out[i] = Object.freeze({ type, data, mimeType })
      } else {
        return `${what}[${i}] must be a text or image block`
      }
    }
    Object.freeze(CheckedMark.add(out))
    return out
  } catch (error) {
    return `${what} could not be read: ${messageOf(error)}`
  }
}

/** A result a `tools/execute` layer returned, as a fresh checked copy, or what is wrong. */
export function resultOf(value: unknown): ToolExecutionResult | string {
  if (typeof value === 'object' && value !== null && CheckedMark.has(value)) return value as ToolExecutionResult
  if (typeof value !== 'object' || value === null) return `expected a result object, got ${value === null ? 'null' : typeof value}`
  const isError = readSafely(value, 'isError')
  const content = contentOf(readSafely(value, 'content'), 'result.content')
  if (typeof content === 'string') return isError === true || isError === false ? content : 'a result needs isError: true or false'
  const extra = readSafely(value, 'additionalContexts')
  const additionalContexts = extra === undefined ? undefined : contentOf(extra, 'result.additionalContexts')
  if (typeof additionalContexts === 'string') return additionalContexts
  const meta = metaOf(readSafely(value, 'meta'))
  let out: ToolExecutionResult
  if (isError === false) {
    const raw = readSafely(value, 'value')
    if (raw === undefined) return 'a success result needs a value'
    const snap = snapshot(raw)
    if (!snap.ok) return `result.value is not lossless JSON (${snap.problem})`
    out = { isError: false, value: snap.value, content }
    if (readSafely(value, 'concludesTurn') === true) out.concludesTurn = true
  } else if (isError === true) {
    const error = errorOf(readSafely(value, 'error'))
    if (typeof error === 'string') return error
    out = { isError: true, content, error }
  } else {
    return 'a result needs isError: true or false'
  }
  if (additionalContexts) out.additionalContexts = additionalContexts
  if (meta) out.meta = meta
  return trusted(out)
}

/** A `tools/pre-execute` decision as a fresh copy, or what is wrong. */
export function preDecisionOf(value: unknown): PreToolDecision | string {
  const kind = readSafely(value, 'kind')
  switch (kind) {
    case 'allow': {
      const args = readSafely(value, 'arguments')
      return args === undefined ? ALLOW : { kind, arguments: args as Record<string, unknown> }
    }
    case 'deny': {
      const reason = readSafely(value, 'reason')
      return typeof reason === 'string' && reason ? { kind, reason } : 'a deny needs a non-empty reason'
    }
    case 'ask': {
      const reason = readSafely(value, 'reason')
      if (reason === undefined) return { kind }
      return typeof reason === 'string' ? { kind, reason } : 'ask.reason must be a string'
    }
    default: return 'expected { kind: "allow" | "deny" | "ask" }'
  }
}

/** A `tools/post-execute` decision as a fresh copy, or what is wrong. */
export function postDecisionOf(value: unknown): PostToolDecision | string {
  const kind = readSafely(value, 'kind')
  switch (kind) {
    case 'accept': {
      const out: { kind: 'accept', content?: ContentBlock[], value?: Json, additionalContexts?: ContentBlock[] } = { kind }
      const content = readSafely(value, 'content')
      if (content !== undefined) {
        const copy = contentOf(content, 'accept.content')
        if (typeof copy === 'string') return copy
        out.content = copy
      }
      const extra = readSafely(value, 'additionalContexts')
      if (extra !== undefined) {
        const copy = contentOf(extra, 'accept.additionalContexts')
        if (typeof copy === 'string') return copy
        out.additionalContexts = copy
      }
      const replaced = readSafely(value, 'value')
      if (replaced !== undefined) {
        const snap = snapshot(replaced)
        if (!snap.ok) return `accept.value is not lossless JSON (${snap.problem})`
        out.value = snap.value
      }
      return out
    }
    case 'block': {
      const feedback = readSafely(value, 'feedback')
      return typeof feedback === 'string' && feedback ? { kind, feedback } : 'a block needs non-empty feedback'
    }
    default: return 'expected { kind: "accept" | "block" }'
  }
}

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })

function errorOf(value: unknown): ToolError | string {
  const message = readSafely(value, 'message')
  if (typeof message !== 'string') return 'an error result needs error.message'
  const info = readSafely(value, 'info')
  if (info === undefined || info === null) return { message }
  const out: NonNullable<ToolError['info']> = {}
  for (const key of ['code', 'name', 'plugin'] as const) {
    const field = readSafely(info, key)
    if (typeof field === 'string') out[key] = field
  }
  return { message, info: out }
}

function metaOf(value: unknown): Record<string, Json> | undefined {
  if (value === undefined) return undefined
  const snap = snapshot(value)
  return snap.ok && typeof snap.value === 'object' && snap.value !== null && !Array.isArray(snap.value)
    ? snap.value as Record<string, Json>
    : undefined
}
