/**
 * `@rein/plugin-audit`: one redacted JSON line per finished tool call, appended to a file as
 * each call finishes. Built-in secret patterns always apply; `redact` adds more.
 *
 *   ctx.plugin(audit, { file: './audit.jsonl', redact: ['corp-[0-9a-f]{32}'] })
 */
export { name, inject, apply } from './plugin.js'
export { Config, type AuditConfig, type AuditInput } from './config.js'
export { auditRecord, cut, type AuditRecord, type RecordOptions } from './record.js'
export { createAppender } from './writer.js'
