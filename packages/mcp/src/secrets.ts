/**
 * What must never reach a log line, an `mcp/server` event or a tool error: the values of a
 * server's configured `headers` and `env`. A server may echo them back (an HTTP 401 body
 * quoting the `Authorization` it got, a child printing its environment on a crash), so every
 * text built from what a server said goes through its redactor first. The redactor is
 * `@rein/redact`'s: each value is also matched in any percent-encoding, JSON-escaped and in
 * base64, the token of a `Bearer <token>` value on its own, and common credentials by pattern.
 */
import { createRedactor, type Redactor } from '@rein/redact'
import type { ServerConfig } from './config.js'

/** Values shorter than this are not secrets (`1`, `on`); hiding them would garble messages. */
export const MIN_SECRET_LENGTH = 4

/** The redactor of one server's configured `headers` and `env` values. */
export function serverRedactor(config: ServerConfig): Redactor {
  const { headers, env } = config as { headers?: Record<string, string>, env?: Record<string, string> }
  const values = [...Object.values(headers ?? {}), ...Object.values(env ?? {})]
  return createRedactor(values.filter((value) => value.trim().length >= MIN_SECRET_LENGTH))
}
