/**
 * The innermost layer of `tools/execute`: run the tool body once and turn whatever happens
 * into a result. value -> lossless snapshot -> output schema -> (frozen) -> render -> content.
 * It never throws: a throw, a bad value or a failing render each become their own code.
 */
import { ABORTED, INVALID_TOOL_OUTPUT, Messages, RENDER_FAILED, TOOL_FAILED } from './codes.js'
import { renderValue } from './define-tool.js'
import { snapshot } from './json.js'
import type { RegisteredTool } from './registry.js'
import { messageOf, stringProperty } from './hostile.js'
import { contentOf, failure, trusted } from './results.js'
import type { Checked } from '@rein/schema'
import type { Json, ToolExec, ToolExecutionResult } from '@rein/types'

/**
 * Runs `tool`'s body for `exec` (with the signal currently on `exec`) and hands its result to
 * `done` (a bug on the way, to `broken`): what they return, as a promise. A `then` rather than
 * an async function and an `await`: one promise per body instead of three
 * (docs/performance.md, "one reaction per body").
 */
export function runBody<T>(
  tool: RegisteredTool, exec: ToolExec, done: (result: ToolExecutionResult) => T | PromiseLike<T>,
  broken: (error: unknown) => T | PromiseLike<T> = rethrow,
): Promise<T> {
  let raw: unknown
  try {
    raw = tool.definition.execute(exec.arguments, exec)
  } catch (error) {
    return Promise.resolve(thrown(error, exec)).then(done)
  }
  return Promise.resolve(raw).then((value) => {
    let result: ToolExecutionResult | Promise<ToolExecutionResult>
    try {
      result = valueResult(tool, exec, value)
    } catch (error) {
      return broken(error)
    }
    return result instanceof Promise ? result.then(done, broken) : done(result)
  }, (error: unknown) => done(thrown(error, exec)))
}

const rethrow = (error: unknown): never => { throw error }

/**
 * What a body's value becomes: checked, rendered, or the failure saying why not (a reconciled
 * value too). A promise only when the output schema answers asynchronously.
 */
export function valueResult(tool: RegisteredTool, exec: ToolExec, raw: unknown): ToolExecutionResult | Promise<ToolExecutionResult> {
  const { definition } = tool
  const snap = snapshot(raw)
  if (!snap.ok) {
    return failure(INVALID_TOOL_OUTPUT, `tool "${exec.name}" returned a value that is not lossless JSON (${snap.problem})`)
  }
  const value = snap.value
  const checked = tool.checkOutput?.(value)
  if (checked instanceof Promise) return checked.then((answer) => rendered(tool, exec, value, answer))
  return rendered(tool, exec, value, checked)
}

/** `value` as its output schema answered it (`checked`, when the tool has one), rendered. */
function rendered(tool: RegisteredTool, exec: ToolExec, value: Json, checked: Checked | undefined): ToolExecutionResult {
  const { definition } = tool
  if (checked !== undefined) {
    if (!checked.ok) {
      return failure(INVALID_TOOL_OUTPUT,
        `tool "${exec.name}" returned a value that does not fit its output schema: ${checked.lines.join('; ')}`)
    }
    if ('value' in checked) {
      const out = snapshot(checked.value)
      if (!out.ok) return failure(INVALID_TOOL_OUTPUT, `the output schema of "${exec.name}" made a value that is not lossless JSON (${out.problem})`)
      value = out.value
    }
  }
  let shown: unknown
  try {
    shown = definition.output?.render ? definition.output.render(exec.arguments, value) : renderValue(value)
  } catch (error) {
    return failure(RENDER_FAILED, `rendering the result of "${exec.name}" failed: ${messageOf(error)}`)
  }
  const content = contentOf(shown, 'content')
  if (typeof content === 'string') {
    return failure(RENDER_FAILED, `render of "${exec.name}" must return an array of content blocks (${content})`)
  }
  return trusted(definition.concludesTurn
    ? { isError: false, value, content, concludesTurn: true }
    : { isError: false, value, content })
}

/** A body's throw as a result: the abort itself is `ABORTED`; otherwise the error's own code or `TOOL_FAILED`. */
function thrown(error: unknown, exec: ToolExec): ToolExecutionResult {
  const signal = exec.signal
  if (signal.aborted && (error === signal.reason || stringProperty(error, 'name') === 'AbortError')) {
    return failure(ABORTED, Messages.aborted)
  }
  const name = stringProperty(error, 'name')
  return failure(stringProperty(error, 'code') ?? TOOL_FAILED, messageOf(error), name !== 'Error' ? name : undefined)
}
