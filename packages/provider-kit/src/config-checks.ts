/**
 * The config checks every provider shares, worded one way. Each refusal is a
 * `ProviderConfigError` that starts `<package> config:` and names the key, what it must be and
 * what it got — for a value that may be a credential (`apiKey`, a header value) only its type or
 * its problem, never the value. Header values are taken as fetch sends them (trimmed) and refused
 * when fetch could not send them, so fetch never gets to quote one in its own error. Unknown keys
 * are refused, with the likely intended one. Meant to run once, in `createProvider`.
 */
import { ProviderConfigError } from './errors.js'
import { createRedactor } from '@rein/redact'
import { MAX_TIMER_MS } from '@rein/kernel'
import { DEFAULT_IDLE_TIMEOUT_MS } from './limits.js'
import type { RetryPolicy } from './retry.js'

/** The config keys of the HTTP layer, the same in every provider. */
export interface TransportConfig extends Partial<Pick<RetryPolicy, 'maxRetries' | 'retryBaseDelayMs' | 'maxRetryDelayMs'>> {
  /** Use server-sent events. Default true. */
  stream?: boolean
  /**
   * How long the server may stay silent — before its headers, or between two chunks of a body —
   * before the attempt fails (then retried like a connection failure while no body has begun).
   * Milliseconds, default 120000 (`DEFAULT_IDLE_TIMEOUT_MS`).
   */
  idleTimeoutMs?: number
}

/** The transport keys after defaults. */
export type Transport = Required<TransportConfig>

/** What a credential must be, and what to do when it is empty (both quoted in the refusal). */
export interface SecretAdvice {
  mustBe: string
  whenEmpty: string
}

type Raw = Record<string, unknown>

/** HTTP whitespace, which fetch strips from both ends of a header value before sending it. */
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

/** An HTTP header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Why fetch would refuse `value` in a header, or undefined when it would send it. */
function unsendable(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'a line break'
  if (value.includes('\0')) return 'a NUL character'
  if (/[^\x00-\xff]/.test(value)) return 'a character outside Latin-1'
  return undefined
}

/** The checks, each refusal prefixed with the package's name. */
export class ConfigCheck {
  constructor(readonly packageName: string) {}

  /**
   * Runs `resolve`, and rethrows a refusal with `credentials` (the configured key and secret
   * header values, as written) taken out of its message in every spelling: a key written into
   * the wrong field (`baseURL: ftp://x/<key>`, `temperature: <key>`) is never printed.
   */
  hiding<T>(credentials: readonly unknown[], resolve: () => T): T {
    try {
      return resolve()
    } catch (error) {
      if (!(error instanceof ProviderConfigError)) throw error
      const values = credentials.filter((value): value is string => typeof value === 'string').flatMap((value) => [value, value.trim()])
      const message = createRedactor(values)(error.message)
      throw message === error.message ? error : new ProviderConfigError(message)
    }
  }

  /** Refuses with `text`. */
  problem(text: string): never {
    throw new ProviderConfigError(`${this.packageName} config: ${text}`)
  }

  /** A value as a refusal shows it: short strings quoted, long ones by length, objects by type. */
  describe(value: unknown): string {
    if (value === undefined) return 'nothing'
    if (value === null) return 'null'
    if (typeof value === 'string') return value.length > 60 ? `a ${value.length}-character string` : JSON.stringify(value)
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    return Array.isArray(value) ? 'an array' : `a ${typeof value}`
  }

  /** `"key" must be <must> (got <value>)`. */
  fail(key: string, must: string, got: unknown): never {
    this.problem(`"${key}" must be ${must} (got ${this.describe(got)})`)
  }

  /** Like `fail`, for a value that may be a credential: only its type is shown. */
  failType(key: string, must: string, got: unknown): never {
    const type = got === null ? 'null' : Array.isArray(got) ? 'an array' : `a ${typeof got}`
    this.problem(`"${key}" must be ${must} (got ${type})`)
  }

  /** The raw config as an object; refused, naming the keys it needs at least, when it is not one. */
  object(raw: unknown, needs: string): Raw {
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Raw
    throw new ProviderConfigError(`${this.packageName} config must be an object with at least ${needs} (got ${this.describe(raw)})`)
  }

  /** Refuses keys outside `known`, with the one probably meant (`max_tokens` -> `maxTokens`). */
  knownKeys(raw: Raw, known: readonly string[]): void {
    const unknown = Object.keys(raw).filter((k) => !known.includes(k))
    if (unknown.length === 0) return
    const meant = (key: string) => known.find((k) => k.toLowerCase() === key.replace(/[_-]/g, '').toLowerCase())
    const hints = unknown.map((k) => (meant(k) ? `"${k}" (did you mean "${meant(k)}"?)` : `"${k}"`))
    this.problem(`unknown key${unknown.length > 1 ? 's' : ''} ${hints.join(', ')}; the known keys are ${known.join(', ')}`)
  }

  /** An optional finite number that passes `ok`. */
  number(raw: Raw, key: string, ok: (n: number) => boolean, must: string): number | undefined {
    const v = raw[key]
    if (v === undefined) return undefined
    if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) this.fail(key, must, v)
    return v
  }

  /** An optional boolean. */
  boolean(raw: Raw, key: string): boolean | undefined {
    const v = raw[key]
    if (v === undefined) return undefined
    if (typeof v !== 'boolean') this.fail(key, 'true or false', v)
    return v
  }

  /** A header value as fetch sends it; refused, without showing it, when fetch could not send it. */
  headerValue(key: string, raw: string): string {
    const value = raw.replace(HTTP_WHITESPACE, '')
    const bad = unsendable(value)
    if (bad !== undefined) this.problem(`"${key}" contains ${bad}, which cannot be sent in an HTTP header; remove it (check the variable or file it comes from). The value is not shown.`)
    return value
  }

  /** The `headers` key: header names to string values, each as fetch sends it. */
  headers(value: unknown, must = 'an object of header names to string values'): Record<string, string> {
    if (value === undefined) return {}
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail('headers', must, value)
    const out: Record<string, string> = {}
    for (const [name, v] of Object.entries(value)) {
      if (!HEADER_NAME.test(name)) this.fail('headers', 'an object whose keys are HTTP header names', name)
      if (typeof v !== 'string') this.failType(`headers.${name}`, 'a string', v)
      out[name] = this.headerValue(`headers.${name}`, v)
    }
    return out
  }

  /** A credential such as `apiKey`: a string, as fetch sends it, not empty. Its value is never shown. */
  secret(key: string, value: unknown, advice: SecretAdvice): string {
    if (typeof value !== 'string') this.failType(key, advice.mustBe, value)
    const secret = this.headerValue(key, value)
    if (secret === '') this.problem(`"${key}" is empty; ${advice.whenEmpty}`)
    return secret
  }

  /** `stream`, `maxRetries`, `retryBaseDelayMs`, `maxRetryDelayMs` and `idleTimeoutMs`, defaults filled in. */
  transport(raw: Raw): Transport {
    return {
      stream: this.boolean(raw, 'stream') ?? true,
      maxRetries: this.number(raw, 'maxRetries', (n) => Number.isInteger(n) && n >= 0 && n <= 10, 'an integer from 0 to 10') ?? 2,
      // A wait between attempts is one timer, and a timer holds at most MAX_TIMER_MS.
      retryBaseDelayMs: this.number(raw, 'retryBaseDelayMs', (n) => n >= 0 && n <= MAX_TIMER_MS, `a number of milliseconds from 0 to ${MAX_TIMER_MS}`) ?? 500,
      maxRetryDelayMs: this.number(raw, 'maxRetryDelayMs', (n) => n >= 0 && n <= MAX_TIMER_MS, `a number of milliseconds from 0 to ${MAX_TIMER_MS}`) ?? 60_000,
      idleTimeoutMs: this.number(raw, 'idleTimeoutMs', (n) => n >= 1 && n <= MAX_TIMER_MS, `a number of milliseconds from 1 to ${MAX_TIMER_MS}`) ?? DEFAULT_IDLE_TIMEOUT_MS,
    }
  }
}
