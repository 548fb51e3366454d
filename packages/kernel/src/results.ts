/**
 * Results: building them, reading what a handler returned, and the last word on them. What a
 * handler returns is read once into a fresh frozen copy (it may be a proxy that answers a check
 * one way and later another); copies the kernel made carry `CheckedMark`. Never throws.
 */
import { ABORTED, ABORTED_BEFORE_DISPATCH, Messages, PIPELINE_FAILED, TOOL_BLOCKED } from './codes.js'
import { PipelineError } from './compose.js'
import { HOOKS } from './hooks.js'
import { messageOf, readSafely } from './hostile.js'
import { snapshot } from './json.js'
import { CheckedMark } from './marks.js'
import type { ContentBlock, Json, PostToolDecision, PreToolDecision, ToolError, ToolExecutionResult, ToolFailure } from '@rein/types'

/** A failed result with a code (and, optionally, `info.name` and `info.plugin`); frozen. */
export function failure(code: string, message: string, name?: string, plugin?: string): ToolFailure {
  const info: NonNullable<ToolFailure['error']['info']> = { code }
  if (name !== undefined) info.name = name
  if (plugin !== undefined) info.plugin = plugin
  return trusted({
    isError: true,
    content: Object.freeze([Object.freeze({ type: 'text' as const, text: `Error: ${message}` })]) as ContentBlock[],
    error: Object.freeze({ message, info: Object.freeze(info) }),
  })
}

/**
 * `error.info.name` of a result handed back while its body may still run (the kernel's
 * `Abandoned`, timeout-policy's `ToolTimeoutAbandoned`): a plugin that returns early uses one.
 */
export const ABANDONED_NAMES: ReadonlySet<string> = new Set(['Abandoned', 'ToolTimeoutAbandoned'])

/** Whether `value` is a result given up on while its body may still run (a retry would run a second copy). */
export function bodyMayStillRun(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const result = value as ToolExecutionResult
  if (!result.isError) return false
  const info = result.error?.info
  return info?.name !== undefined && ABANDONED_NAMES.has(info.name) && info.code !== ABORTED_BEFORE_DISPATCH
}

/** The code of a result: its `error.info.code`, or undefined for a success. */
export function codeOf(result: ToolExecutionResult): string | undefined {
  return result.isError ? result.error.info?.code : undefined
}

/** Whether `block` is a well-formed content block. */
export function isContentBlock(block: unknown): block is ContentBlock {
  if (typeof block !== 'object' || block === null) return false
  const b = block as Record<string, unknown>
  if (b.type === 'text') return typeof b.text === 'string'
  if (b.type === 'image') return typeof b.data === 'string' && typeof b.mimeType === 'string'
  return false
}

/** Whether `blocks` is an array of well-formed content blocks. */
export function isContent(blocks: unknown): blocks is ContentBlock[] {
  return Array.isArray(blocks) && blocks.every(isContentBlock)
}

/** The last content invariant: non-empty content; a failure's first block is its error line. */
export function finalizeContent(result: ToolExecutionResult): ToolExecutionResult {
  if (result.isError) {
    const first = result.content[0]
    if (first?.type === 'text' && first.text.startsWith('Error: ')) return result
    return { ...result, content: [{ type: 'text', text: `Error: ${result.error.message}` }, ...result.content] }
  }
  if (result.content.length === 0) return { ...result, content: [{ type: 'text', text: '(no output)' }] }
  return result
}

/** Marks a result the kernel built from checked parts, so later layers skip the copy. */
export function trusted<T extends ToolExecutionResult>(result: T): T {
  Object.freeze(CheckedMark.add(result))
  return result
}

/** A stage that threw: the plugin and stage it names, or the kernel's own failure. */
export function stageFailure(error: unknown): ToolFailure {
  if (error instanceof PipelineError) return failure(PIPELINE_FAILED, error.message, error.stage, error.plugin)
  return internalFailure(error)
}

/** A bug in rein's pipeline, as a result rather than a rejection. */
export function internalFailure(error: unknown): ToolFailure {
  return failure(PIPELINE_FAILED, `internal error in rein's pipeline: ${messageOf(error)}`, 'kernel')
}

/** A decision kind the kernel does not know: never fall open. */
export function unreachable(decision: never, stage: string): ToolFailure {
  return failure(PIPELINE_FAILED, `${stage} decided ${JSON.stringify(readSafely(decision, 'kind'))}, which the kernel does not know`, stage)
}

/** A success turned `ABORTED` by the caller's abort keeps the additional context it already had. */
export function abortedFrom(result: ToolExecutionResult): ToolExecutionResult {
  const aborted = failure(ABORTED, Messages.aborted)
  return result.additionalContexts?.length ? trusted({ ...aborted, additionalContexts: result.additionalContexts }) : aborted
}

/** Applies a (checked) post-execute decision. A deny or failure stays an error whatever is accepted. */
export function applyPost(result: ToolExecutionResult, decision: PostToolDecision): ToolExecutionResult {
  switch (decision.kind) {
    case 'block':
      return failure(TOOL_BLOCKED, decision.feedback)
    case 'accept': {
      let out = result
      if (decision.content) out = { ...out, content: decision.content }
      if (decision.value !== undefined && !out.isError) out = { ...out, value: decision.value }
      if (decision.additionalContexts?.length) {
        out = { ...out, additionalContexts: [...(out.additionalContexts ?? []), ...decision.additionalContexts] }
      }
      return out
    }
    default:
      return unreachable(decision, 'tools/post-execute')
  }
}

/** A fresh, frozen list of well-formed content blocks, or what is wrong with `value`. */
export function contentOf(value: unknown, what: string): ContentBlock[] | string {
  if (typeof value === 'object' && value !== null && CheckedMark.has(value)) return value as ContentBlock[]
  try {
    if (!Array.isArray(value)) return `${what} must be an array of content blocks`
    const out: ContentBlock[] = new Array(value.length)
    for (let i = 0; i < out.length; i++) {
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
  if (isError !== true && isError !== false) return 'a result needs isError: true or false'
  const content = contentOf(readSafely(value, 'content'), 'result.content')
  if (typeof content === 'string') return content
  const extra = readSafely(value, 'additionalContexts')
  const additionalContexts = extra === undefined ? undefined : contentOf(extra, 'result.additionalContexts')
  if (typeof additionalContexts === 'string') return additionalContexts
  let out: ToolExecutionResult
  if (isError) {
    const error = errorOf(readSafely(value, 'error'))
    if (typeof error === 'string') return error
    out = { isError, content, error }
    if (readSafely(value, 'endsRun') === true) out.endsRun = true
  } else {
    const raw = readSafely(value, 'value')
    if (raw === undefined) return 'a success result needs a value'
    const snap = snapshot(raw)
    if (!snap.ok) return `result.value is not lossless JSON (${snap.problem})`
    out = { isError, value: snap.value, content }
    if (readSafely(value, 'concludesTurn') === true) out.concludesTurn = true
  }
  if (additionalContexts) out.additionalContexts = additionalContexts
  const meta = snapshot(readSafely(value, 'meta') ?? null)
  if (meta.ok && typeof meta.value === 'object' && meta.value !== null && !Array.isArray(meta.value)) out.meta = meta.value
  return trusted(out)
}

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

/** The innermost answers of the decision onions: pre-execute's allow, post-execute's accept (unchanged). */
export const ALLOW: PreToolDecision = Object.freeze({ kind: HOOKS['tools/pre-execute'].innermost })
export const ACCEPT: PostToolDecision = Object.freeze({ kind: HOOKS['tools/post-execute'].innermost })
/** The same, as promises made once: a chain whose handlers all hand `next()` on answers one of these. */
export const ALLOWED = Promise.resolve(ALLOW)
export const ACCEPTED = Promise.resolve(ACCEPT)

/**
 * The decision `next()` answered when it is known without waiting (the innermost default:
 * allow, or accept unchanged), else undefined. A handler can then decide at once, and return
 * the promise `next()` gave it when it changes nothing.
 */
export function knownDecision(pending: Promise<PreToolDecision>): PreToolDecision | undefined
export function knownDecision(pending: Promise<PostToolDecision>): PostToolDecision | undefined
export function knownDecision(pending: unknown): PreToolDecision | PostToolDecision | undefined {
  return pending === ALLOWED ? ALLOW : pending === ACCEPTED ? ACCEPT : undefined
}

/** A `tools/pre-execute` decision as a fresh copy, or what is wrong. */
export function preDecisionOf(value: unknown): PreToolDecision | string {
  const kind = readSafely(value, 'kind')
  const reason = readSafely(value, 'reason')
  switch (kind) {
    case 'allow': {
      const args = readSafely(value, 'arguments')
      return args === undefined ? ALLOW : { kind, arguments: args as Record<string, unknown> }
    }
    case 'deny': return typeof reason === 'string' && reason ? { kind, reason } : 'a deny needs a non-empty reason'
    case 'ask':
      if (reason === undefined) return { kind }
      return typeof reason === 'string' ? { kind, reason } : 'ask.reason must be a string'
    default: return 'expected { kind: "allow" | "deny" | "ask" }'
  }
}

/** A `tools/post-execute` decision as a fresh copy, or what is wrong. */
export function postDecisionOf(value: unknown): PostToolDecision | string {
  const kind = readSafely(value, 'kind')
  if (kind === 'block') {
    const feedback = readSafely(value, 'feedback')
    return typeof feedback === 'string' && feedback ? { kind, feedback } : 'a block needs non-empty feedback'
  }
  if (kind !== 'accept') return 'expected { kind: "accept" | "block" }'
  const out: { kind: 'accept', content?: ContentBlock[], value?: Json, additionalContexts?: ContentBlock[] } = { kind }
  for (const key of ['content', 'additionalContexts'] as const) {
    const given = readSafely(value, key)
    if (given === undefined) continue
    const copy = contentOf(given, `accept.${key}`)
    if (typeof copy === 'string') return copy
    out[key] = copy
  }
  const replaced = readSafely(value, 'value')
  if (replaced !== undefined) {
    const snap = snapshot(replaced)
    if (!snap.ok) return `accept.value is not lossless JSON (${snap.problem})`
    out.value = snap.value
  }
  return out
}
