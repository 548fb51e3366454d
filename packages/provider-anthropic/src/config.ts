/**
 * The provider's config: its shape, its defaults and its validation. `resolveConfig` runs once,
 * in `createProvider`, and returns a complete config or throws a `ProviderConfigError` that
 * names the key, what it must be and how to fix it — never quoting the `apiKey` or a header
 * value (they are secrets: only their type or their problem is named). It also builds the
 * redactor for those secrets. Unknown keys are refused, with the likely intended key.
 */
import { ProviderConfigError } from './errors.js'
import { createRedactor, type Redactor } from './secrets.js'

/** What `createProvider` accepts (the `provider.config` of `rein.yaml`). */
export interface AnthropicProviderConfig {
  /** Sent as `x-api-key`. May be left out only when `headers` carries the credential (`x-api-key` or `authorization`). */
  apiKey?: string
  /** The model name, e.g. `claude-sonnet-4-5`. */
  model: string
  /** Sent as `max_tokens`: the longest answer, in tokens. Required, as by the API. */
  maxTokens: number
  /** The server root, as in the official SDK; requests go to `<baseURL>/v1/messages`. Default `https://api.anthropic.com`. */
  baseURL?: string
  /** Use server-sent events. Default true. */
  stream?: boolean
  /** Retries after a 408/409/429/5xx/529 or a connection failure before the body began. Default 2. */
  maxRetries?: number
  /** Sent as `temperature` (0 to 1). */
  temperature?: number
  /** Extra request headers (e.g. `anthropic-beta`); they may replace the defaults. Every value is treated as a secret. */
  headers?: Record<string, string>
  /** Sent as `anthropic-version`. Default `2023-06-01`. */
  anthropicVersion?: string
  /** `false` sends `tool_choice: { type: 'auto', disable_parallel_tool_use: true }` when tools are offered. Unset: the server's default (parallel). */
  parallelToolCalls?: boolean
  /** First backoff delay when the server gives no `retry-after`; doubles per retry. Default 500. */
  retryBaseDelayMs?: number
  /** The longest wait between attempts; a longer `retry-after` fails at once instead. Default 60000. */
  maxRetryDelayMs?: number
}

/** The config after defaults: every field the provider reads is present. */
export interface ResolvedConfig {
  /** The server root as messages show it, without a trailing slash. */
  baseURL: string
  /** `<baseURL>/v1/messages`. */
  endpoint: string
  apiKey?: string
  model: string
  maxTokens: number
  stream: boolean
  maxRetries: number
  temperature?: number
  headers: Record<string, string>
  anthropicVersion: string
  parallelToolCalls?: boolean
  retryBaseDelayMs: number
  maxRetryDelayMs: number
  /** Takes the apiKey and every header value out of a text. */
  redact: Redactor
}

export const DEFAULT_BASE_URL = 'https://api.anthropic.com'
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01'

const KNOWN_KEYS = [
  'apiKey', 'model', 'maxTokens', 'baseURL', 'stream', 'maxRetries', 'temperature', 'headers',
  'anthropicVersion', 'parallelToolCalls', 'retryBaseDelayMs', 'maxRetryDelayMs',
] as const

const PREFIX = '@rein/provider-anthropic config:'

function problem(text: string): never {
  throw new ProviderConfigError(`${PREFIX} ${text}`)
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (typeof value === 'string') return value.length > 60 ? `a ${value.length}-character string` : JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}

/** For a value that may be a credential: its type only. */
function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
}

function fail(key: string, must: string, got: unknown): never {
  problem(`"${key}" must be ${must} (got ${describe(got)})`)
}

function optionalNumber(raw: Record<string, unknown>, key: string, ok: (n: number) => boolean, must: string): number | undefined {
  const v = raw[key]
  if (v === undefined) return undefined
  if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) fail(key, must, v)
  return v
}

function optionalBoolean(raw: Record<string, unknown>, key: string): boolean | undefined {
  const v = raw[key]
  if (v === undefined) return undefined
  if (typeof v !== 'boolean') fail(key, 'true or false', v)
  return v
}

/** The key the user probably meant: `max_tokens` -> `maxTokens`, `baseUrl` -> `baseURL`. */
function meant(key: string): string | undefined {
  const folded = key.replace(/[_-]/g, '').toLowerCase()
  return KNOWN_KEYS.find((k) => k.toLowerCase() === folded)
}

function refuseUnknown(raw: Record<string, unknown>): void {
  const unknown = Object.keys(raw).filter((k) => !(KNOWN_KEYS as readonly string[]).includes(k))
  if (unknown.length === 0) return
  const hints = unknown.map((k) => (meant(k) ? `"${k}" (did you mean "${meant(k)}"?)` : `"${k}"`))
  problem(`unknown key${unknown.length > 1 ? 's' : ''} ${hints.join(', ')}; the known keys are ${KNOWN_KEYS.join(', ')}`)
}

/** Why fetch would refuse `value` in a header, or undefined when it would send it. */
function unsendable(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'a line break'
  if (value.includes('\0')) return 'a NUL character'
  if (/[^\x00-\xff]/.test(value)) return 'a character outside Latin-1'
  return undefined
}

/** A secret header value as fetch sends it (trimmed); refused, without showing it, when fetch could not send it. */
function headerValue(key: string, raw: string): string {
  const value = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
  const bad = unsendable(value)
  if (bad !== undefined) problem(`"${key}" contains ${bad}, which cannot be sent in an HTTP header; remove it (check the variable or file it comes from). The value is not shown.`)
  return value
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function resolveHeaders(v: unknown): Record<string, string> {
  if (v === undefined) return {}
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('headers', 'an object of header names to string values, e.g. { anthropic-beta: "..." }', v)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(v)) {
    if (!HEADER_NAME.test(name)) fail('headers', 'an object whose keys are HTTP header names', name)
    if (typeof value !== 'string') problem(`"headers.${name}" must be a string (got ${typeOf(value)})`)
    out[name] = headerValue(`headers.${name}`, value)
  }
  return out
}

/** The key, or undefined when the headers carry the credential themselves. */
function resolveApiKey(v: unknown, headers: Record<string, string>): string | undefined {
  const sendsOwn = Object.keys(headers).some((n) => ['x-api-key', 'authorization'].includes(n.toLowerCase()))
  if (v === undefined) {
    if (sendsOwn) return undefined
    problem('"apiKey" is missing; set it, e.g. apiKey: ${env:ANTHROPIC_API_KEY} (or send the credential yourself as headers.x-api-key or headers.authorization)')
  }
  if (typeof v !== 'string') problem(`"apiKey" must be a string, e.g. apiKey: \${env:ANTHROPIC_API_KEY} (got ${typeOf(v)})`)
  const key = headerValue('apiKey', v)
  if (key === '') problem('"apiKey" is empty; set it (e.g. apiKey: ${env:ANTHROPIC_API_KEY}) and check that the variable holds the key')
  return key
}

const ROOT_MUST = `the server root, an http(s) URL such as "${DEFAULT_BASE_URL}"`

/** The root without a trailing slash; refused when requests to `<root>/v1/messages` could not work. */
function resolveBaseURL(v: unknown): string {
  if (v === undefined) return DEFAULT_BASE_URL
  if (typeof v !== 'string') fail('baseURL', ROOT_MUST, v)
  // Anything after ? or # and any user info may be a secret: the quoted form leaves them out.
  const quoted = describe(v.replace(/[?#][\s\S]*$/, '?…').replace(/^([^/@]*\/\/)?[^/@]*@/, '$1…@'))
  let url: URL
  try { url = new URL(v) } catch { problem(`"baseURL" must be ${ROOT_MUST} (got ${quoted})`) }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') problem(`"baseURL" must be ${ROOT_MUST} (got ${quoted})`)
  if (url.username !== '' || url.password !== '') problem(`"baseURL" must not hold a user name or password (got ${quoted}); send credentials with apiKey or headers`)
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(v)) problem(`"baseURL" must not have a query or fragment (got ${quoted}): requests go to <baseURL>/v1/messages`)
  const root = `${url.origin}${url.pathname}`.replace(/\/+$/, '')
  if (/\/v1(\/messages)?$/.test(root)) {
    problem(`"baseURL" is the server root, as in the official SDK: requests go to <baseURL>/v1/messages, so drop the trailing ${root.endsWith('/messages') ? '/v1/messages' : '/v1'} (got ${quoted})`)
  }
  return root
}

/** Validates a raw config and fills in the defaults. Throws `ProviderConfigError` on the first problem. */
export function resolveConfig(raw: unknown): ResolvedConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProviderConfigError(`@rein/provider-anthropic config must be an object with at least "model", "maxTokens" and "apiKey" (got ${describe(raw)})`)
  }
  const r = raw as Record<string, unknown>
  refuseUnknown(r)
  if (typeof r.model !== 'string' || r.model.trim() === '') fail('model', 'a non-empty string such as "claude-sonnet-4-5"', r.model)
  if (r.maxTokens === undefined) problem('"maxTokens" is required: the Messages API needs a limit on the length of each answer; set e.g. maxTokens: 4096')
  const maxTokens = optionalNumber(r, 'maxTokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer such as 4096')!
  const headers = resolveHeaders(r.headers)
  const apiKey = resolveApiKey(r.apiKey, headers)
  const version = r.anthropicVersion ?? DEFAULT_ANTHROPIC_VERSION
  if (typeof version !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(version)) fail('anthropicVersion', `an API version date such as "${DEFAULT_ANTHROPIC_VERSION}"`, version)
  const baseURL = resolveBaseURL(r.baseURL)
  const config: ResolvedConfig = {
    baseURL,
    endpoint: `${baseURL}/v1/messages`,
    model: r.model,
    maxTokens,
    stream: optionalBoolean(r, 'stream') ?? true,
    maxRetries: optionalNumber(r, 'maxRetries', (n) => Number.isInteger(n) && n >= 0 && n <= 10, 'an integer from 0 to 10') ?? 2,
    headers,
    anthropicVersion: version,
    retryBaseDelayMs: optionalNumber(r, 'retryBaseDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0') ?? 500,
    maxRetryDelayMs: optionalNumber(r, 'maxRetryDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0') ?? 60_000,
    redact: createRedactor([...(apiKey === undefined ? [] : [apiKey]), ...Object.values(headers)]),
  }
  if (apiKey !== undefined) config.apiKey = apiKey
  const temperature = optionalNumber(r, 'temperature', (n) => n >= 0 && n <= 1, 'a number from 0 to 1')
  if (temperature !== undefined) config.temperature = temperature
  const parallel = optionalBoolean(r, 'parallelToolCalls')
  if (parallel !== undefined) config.parallelToolCalls = parallel
  return config
}
