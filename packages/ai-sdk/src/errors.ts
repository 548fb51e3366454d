/**
 * What a refused or failed call throws from `execute`, so the AI SDK reports it as a
 * `tool-error` (an `output-error` in a UI message) while the model reads rein's text.
 */
import type { ToolFailure } from '@rein/kernel'
import { modelText } from './text.js'

export class ReinToolError extends Error {
  override readonly name = 'ReinToolError'
  /** rein's result code (`TOOL_DENIED`, `TOOL_TIMEOUT`, `INVALID_ARGS`...), when the result has one. */
  readonly code: string | undefined
  /** The kernel's message, without the `Error: ` the model reads before it. */
  readonly reason: string
  /** The whole result rein settled the call with. */
  readonly result: ToolFailure

  /**
   * `message` is exactly what the model reads (the AI SDK sends an error's `message` as the
   * tool's `error-text` output): `modelText(result)`, which starts with `Error: `.
   */
  constructor(result: ToolFailure) {
    super(modelText(result))
    this.code = result.error.info?.code
    this.reason = result.error.message
    this.result = result
  }
}
