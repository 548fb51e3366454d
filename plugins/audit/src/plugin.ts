/**
 * Wires the audit log into the kernel: one `tools/result` observer that appends a line per
 * finished call, with the pre-execute decision the kernel acted on (`exec.decision`),
 * and one `tools/hand-off` hold that keeps each result from its caller until its line is
 * written. It registers no handler in any onion, so it cannot change or block a call; a
 * failure to write is reported once, and never withholds or reaches a result. The file is
 * opened (and checked) when the plugin is applied, so a path that cannot be written safely
 * fails the start, which keeps every tool from running unaudited.
 */
import { resolve } from 'node:path'
import type { Context } from 'cordis'
import type { AuditConfig } from './config.js'
import { lineWriter } from './line.js'
import { createAppender } from './writer.js'

/** The plugin name, as shown by `ctx.tools.chain(...)`. */
export const name = 'audit'
/** Applied after the kernel, whose `ctx.tools` it hooks into. */
export const inject = ['tools']

/** Registers the result observer and the hold for as long as the plugin lives. */
export function apply(ctx: Context, config: AuditConfig) {
  const file = resolve(process.cwd(), config.file)
  const logger = ctx.logger(name)
  const appender = createAppender(file, (message) => logger.warn(message))
  appender.open()
  ctx.on('dispose', () => appender.close())
  const line = lineWriter({ redact: config.redact, maxStringLength: config.maxStringLength })

  ctx.on('tools/result', (exec, result) => appender.append(line(exec, result, Date.now())))
  ctx.on('tools/hand-off', () => appender.written())
}
