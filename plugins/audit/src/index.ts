/**
 * `@rein/plugin-audit`: one redacted JSON line per finished tool call, appended to a file as
 * each call finishes. Built-in secret patterns always apply; `redact` adds more.
 *
 *   ctx.plugin(audit, { file: './audit.jsonl', redact: ['corp-[0-9a-f]{32}'] })
 */
export { name, inject, apply } from './plugin.js'
export { Config, type AuditConfig, type AuditInput } from './config.js'
export { auditRecord, type AuditRecord, type RecordOptions } from './record.js'
/** Every string longer than `max` characters cut, object keys included (0 = no limit): the audit line's cut. */
export { cutStrings as cut } from '@rein/redact'
export { createAppender } from './writer.js'
