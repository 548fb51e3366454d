/**
 * Building and checking results. Every failure is made by `failure()`, so its first content
 * block is always `Error: <message>`; `finalizeContent` is the last word on what the model
 * sees: never an empty content list, never a malformed block.
 */
import type { ContentBlock, ToolExecutionResult, ToolFailure } from './types.js'

/** A failed result with a code (and, optionally, `info.name`). */
export function failure(code: string, message: string, name?: string): ToolFailure {
  return {
    isError: true,
    content: [{ type: 'text', text: `Error: ${message}` }],
    error: { message, info: name === undefined ? { code } : { code, name } },
  }
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

/** Says what is wrong with a value that claims to be a result, or undefined when it is one. */
export function resultProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `expected a result object, got ${typeof value}`
  const r = value as Record<string, unknown>
  if (r.isError === false) {
    if (!('value' in r)) return 'a success result needs a value'
  } else if (r.isError === true) {
    const error = r.error as Record<string, unknown> | undefined
    if (typeof error?.message !== 'string') return 'an error result needs error.message'
  } else {
    return 'a result needs isError: true or false'
  }
  if (!isContent(r.content)) return 'result.content must be an array of content blocks'
  if (r.additionalContexts !== undefined && !isContent(r.additionalContexts)) {
    return 'result.additionalContexts must be an array of content blocks'
  }
  return undefined
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
