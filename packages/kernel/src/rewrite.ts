/**
 * Arguments a pre-execute handler rewrote (`{ kind: 'allow', arguments }`). They are copied as
 * frozen plain JSON and checked against the tool's schema before they replace `exec.arguments`,
 * so the guards, the body and every later stage see only arguments the schema accepts; the
 * guards run on them whatever the pipeline would otherwise skip. The arguments the call came
 * with stay readable by observers (`exec.originalArguments`, for an audit line).
 */
import { applyChecked, isArgumentsRule } from './arguments.js'
import { CALL, type Exec } from './exec.js'
import { snapshot } from './json.js'
import type { Checked } from '@rein/schema'

/**
 * Replaces `exec.arguments` with `raw` once it passes the tool's schema, then hands on: to
 * `then(problem)` with what is wrong (the arguments are left as they were), or with undefined.
 */
export function rewritten<T>(exec: Exec, raw: unknown, then: (problem: string | undefined) => T): T | Promise<Awaited<T>> {
  const problem = (why: string) => `pre-execute rewrote the arguments of "${exec.name}" into ones that cannot run: ${why}`
  const snap = snapshot(raw, { arguments: true })
  if (!snap.ok) return then(problem(isArgumentsRule(snap.problem) ? snap.problem : `they are not plain JSON (${snap.problem})`))
  const value = snap.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return then(problem('they must be an object'))
  const record = exec[CALL]
  const apply = (checked: Checked): T => {
    if (!checked.ok) return then(problem(checked.lines.join('; ')))
    const original = exec.arguments
    ;(exec as { arguments: unknown }).arguments = value
    const invalid = applyChecked(exec, checked)
    if (invalid) {
      ;(exec as { arguments: unknown }).arguments = original
      return then(problem(invalid))
    }
    record.original ??= original
    return then(undefined)
  }
  const checked = record.tool!.checkArgs(value)
  return checked instanceof Promise ? checked.then(apply) as Promise<Awaited<T>> : apply(checked)
}

