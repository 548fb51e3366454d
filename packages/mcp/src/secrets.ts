/**
 * What must never reach a log line, an `mcp/server` event or a tool error: the values of a
 * server's configured `headers` and `env`, and of its `args` every value that is not plainly a
 * flag or a path (`argSecrets`). A server may echo them back (an HTTP 401 body quoting the
 * `Authorization` it got, a child printing its environment or its command line on a crash), so
 * every text built from what a server said goes through its redactor first. The redactor is
 * `@rein/redact`'s: each value is also matched in any percent-encoding, JSON-escaped and in
 * base64, the token of a `Bearer <token>` value on its own, and common credentials by pattern.
 */
import { createRedactor, MIN_ANYWHERE_LENGTH, MIN_SECRET_LENGTH, type Redactor } from '@rein/redact'
import type { ServerConfig } from './config.js'

/** `--name`, `-x`, `--`: a flag, not a secret. */
const FLAG = /^(?:--(?:[A-Za-z0-9][\w.-]*)?|-[A-Za-z0-9])$/
/** `--name=value`, `-name=value`: a flag whose value is judged on its own. */
const FLAG_WITH_VALUE = /^--?[A-Za-z0-9][\w.-]*=/
/** `/x`, `./x`, `../x`, `~/x`, `C:\x`: a path, not a secret. */
const PATH = /^(?:\/|\.\.?\/|~\/|[A-Za-z]:[\\/])/

/** The redactor of one server's configured `headers` and `env` values and of its `args` that may be secrets. */
export function serverRedactor(config: ServerConfig): Redactor {
  const { headers, env, args } = config as { headers?: Record<string, string>, env?: Record<string, string>, args?: string[] }
  const values = [...Object.values(headers ?? {}), ...Object.values(env ?? {}), ...argSecrets(args ?? [])]
  return createRedactor(values.filter((value) => value.trim().length >= MIN_SECRET_LENGTH))
}

/**
 * The values of `args` that may be secrets. Which of them came from `${env:NAME}` is not known
 * here, so every one is taken but a flag (`-e`, `--pass`) and a path (`/srv/x`, `./server.js`):
 * a bare word (`serve`, a package name, a port) is hidden too. Of `--name=value` the value is
 * judged alone; of `-pvalue` (a value glued to a short flag) both the whole and what follows `-p`.
 * An argument with spaces (a `-e` script, `Authorization: Bearer <token>`) is judged word by
 * word, and only its words of `MIN_ANYWHERE_LENGTH` characters or more are taken, so that the
 * short words of a script do not blank the same words in what the server says.
 */
export function argSecrets(args: readonly string[]): string[] {
  return args.flatMap((arg): string[] => {
    if (/\s/.test(arg)) return argSecrets(arg.split(/\s+/)).filter((word) => word.length >= MIN_ANYWHERE_LENGTH)
    if (FLAG.test(arg)) return []
    if (FLAG_WITH_VALUE.test(arg)) return argSecrets([arg.slice(arg.indexOf('=') + 1)])
    if (PATH.test(arg)) return []
    return /^-[^-]/.test(arg) ? [arg, arg.slice(2)] : [arg]
  })
}
