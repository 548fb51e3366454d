/**
 * The error a tool throws on purpose to choose its failed result's code. The kernel reads the
 * `code` of anything a body throws (a string `code` becomes `error.info.code`, the message the
 * result's text), so this class only names that rule; it is not `ToolError`, which is the
 * `error` field of a failed result, a plain record.
 */
export class CodedError extends Error {
  /** `code` becomes the result's `error.info.code`; `message` its `Error: <message>` text. */
  constructor(message: string, readonly code: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'CodedError'
  }
}
