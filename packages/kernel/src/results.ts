/**
 * Building and checking results. Every failure is made by `failure()`, so its first content
 * block is always `Error: <message>`; `finalizeContent` is the last word on what the model
 * sees: never an empty content list, never a malformed block.
 */
import { ABORTED_BEFORE_DISPATCH } from './codes.js'
import { trusted } from './normalize.js'
import type { ContentBlock, ToolExecutionResult, ToolFailure } from './types.js'

/**
 * A failed result with a code (and, optionally, `info.name` and `info.plugin`). Frozen: the
 * pipeline hands it on without copying it again.
 */
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
 * `error.info.name` of a result handed back while its tool body may still be running: the
 * kernel's own after an abort (`Abandoned`), and timeout-policy's given-up attempt
 * (`ToolTimeoutAbandoned`). A plugin that returns before the body settles uses one of them.
 */
export const ABANDONED_NAMES: ReadonlySet<string> = new Set(['Abandoned', 'ToolTimeoutAbandoned'])

/**
 * Whether `value` is a result given up on while its body may still run: a retry would run a
 * second copy beside it, and a write may still land. Not one whose body never started
 * (`ABORTED_BEFORE_DISPATCH`). Reads a value of any shape without trusting it.
 */
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
    const line = `Error: ${result.error.message}`
    const first = result.content[0]
    if (first?.type === 'text' && first.text.startsWith('Error: ')) return result
    return { ...result, content: [{ type: 'text', text: line }, ...result.content] }
  }
  if (result.content.length === 0) return { ...result, content: [{ type: 'text', text: '(no output)' }] }
  return result
}
