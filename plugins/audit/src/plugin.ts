/**
 * Wires the audit log into the kernel: a `tools/pre-execute` handler that only records the
 * decision it sees come back from `next()` (and returns exactly that), and a `tools/result`
 * observer that appends one line per finished call. It never changes or blocks a call; a
 * failure to write is reported once and never reaches a result.
 */
import { resolve } from 'node:path'
import type { Context } from 'cordis'
import type { PreToolDecision, ToolExec } from '@rein/kernel'
import type { AuditConfig } from './config.js'
import { auditRecord } from './record.js'
import { createRedactor, userPattern } from './redact.js'
import { createAppender } from './writer.js'

/** The plugin name, as shown by `ctx.tools.chain(...)`. */
export const name = 'audit'
/** Applied after the kernel, whose `ctx.tools` it hooks into. */
export const inject = ['tools']

/** Registers the decision recorder and the result observer for as long as the plugin lives. */
export function apply(ctx: Context, config: AuditConfig) {
  const file = resolve(process.cwd(), config.file)
  const logger = ctx.logger(name)
  const appender = createAppender(file, (message) => logger.warn(message))
  ctx.on('dispose', () => appender.close())
  const redact = createRedactor(config.redact.map(userPattern))
  const decisions = new WeakMap<ToolExec, PreToolDecision['kind']>()

  ctx.on('tools/pre-execute', async (exec, next) => {
    const decision = await next()
    decisions.set(exec, decision.kind)
    return decision
  })

  ctx.on('tools/result', (exec, result) => {
    let line: string
    try {
      line = JSON.stringify(auditRecord(exec, result, decisions.get(exec), {
        redact, maxStringLength: config.maxStringLength, now: Date.now(),
      }))
    } catch (error) {
      line = JSON.stringify(redact({ ts: new Date().toISOString(), id: exec.id, name: exec.name, auditError: String(error) }))
    }
    appender.append(line)
  })
}
