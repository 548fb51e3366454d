/**
 * The provider's config: its shape, its defaults, and its validation. `resolveConfig` runs
 * once, in `createProvider`, and either returns a complete config or throws a
 * `ProviderConfigError` naming the key, what it must be and what it got — never a secret's
 * value (`apiKey`, header values, query values of `baseURL`). It also builds the redactor for
 * those secrets. Unknown keys are refused, so a typo fails the start instead of being ignored.
 */
import { quotableURL, readBaseURL } from './base-url.js'
import { ProviderConfigError } from './errors.js'
import { createRedactor, headerSecrets, type Redactor } from './secrets.js'

/** What `createProvider` accepts (the `provider.config` of `rein.yaml`). */
export interface OpenAIProviderConfig {
  /** The API root; `/chat/completions` is appended to its path, a query is kept. Default: DeepSeek's `https://api.deepseek.com`. */
  baseURL?: string
  /** The bearer token. Leave it out for a server that needs none (Ollama, llama.cpp); no `Authorization` is sent then. */
  apiKey?: string
  /** The model name, e.g. `deepseek-chat`. */
  model: string
  /** Extra request headers (they may override the defaults, not the body). Values are secret unless the name is in `PUBLIC_HEADERS`. */
  headers?: Record<string, string>
  /** Use server-sent events. Default true. */
  stream?: boolean
  /** Retries after a 429, a 5xx or a network error before the body began. Default 2. */
  maxRetries?: number
  temperature?: number
  /** Sent as `max_tokens`. */
  maxTokens?: number
  /** Sent as `parallel_tool_calls` when tools are offered. Unset: the server's default. */
  parallelToolCalls?: boolean
  /** First backoff delay when the server gives no `retry-after`; doubles per retry. Default 500. */
  retryBaseDelayMs?: number
  /** The longest wait between attempts; a longer `retry-after` fails at once instead. Default 60000. */
  maxRetryDelayMs?: number
}

/** What the request proves itself with (`elsewhere`: secret headers or query values), for the advice an authentication error gives. */
export type Credentials = 'apiKey' | 'elsewhere' | 'none'

/** The config after defaults: every field the provider reads is present. */
export interface ResolvedConfig {
  /** The base URL as messages show it (secret query values replaced). */
  baseURL: string
  /** Where requests go; may hold secrets in its query, so never put it in a message. */
  endpoint: string
  /** `endpoint` as messages show it. */
  shownEndpoint: string
  /** Trimmed as fetch would send it; absent for a server that needs no key. */
  apiKey?: string
  model: string
  headers: Record<string, string>
  stream: boolean
  maxRetries: number
  temperature?: number
  maxTokens?: number
  parallelToolCalls?: boolean
  retryBaseDelayMs: number
  maxRetryDelayMs: number
  credentials: Credentials
  /** Takes the apiKey, secret header values and secret query values out of a text. */
  redact: Redactor
}

/** The default API root. */
export const DEFAULT_BASE_URL = 'https://api.deepseek.com'

const KNOWN_KEYS = [
  'baseURL', 'apiKey', 'model', 'headers', 'stream', 'maxRetries', 'temperature', 'maxTokens',
  'parallelToolCalls', 'retryBaseDelayMs', 'maxRetryDelayMs',
] as const

function fail(key: string, must: string, got: unknown): never {
  throw new ProviderConfigError(`@rein/provider-openai config: "${key}" must be ${must} (got ${describe(got)})`)
}

/** Like `fail`, for a value that may be a credential: only its type is shown. */
function failType(key: string, must: string, got: unknown): never {
  const type = got === null ? 'null' : Array.isArray(got) ? 'an array' : `a ${typeof got}`
  throw new ProviderConfigError(`@rein/provider-openai config: "${key}" must be ${must} (got ${type})`)
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (typeof value === 'string') return value.length > 60 ? `a ${value.length}-character string` : JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
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

/** HTTP whitespace, which fetch strips from both ends of a header value before sending it. */
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

/** Why fetch would refuse `value` as a header value, or undefined when it would send it. */
function unsendable(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'a line break'
  if (value.includes('\0')) return 'a NUL character'
  if (/[^\x00-\xff]/.test(value)) return 'a character outside Latin-1'
  return undefined
}

/** A header value as fetch sends it; throws, without showing the value, when fetch would refuse it. */
function headerValue(key: string, raw: string): string {
  const value = raw.replace(HTTP_WHITESPACE, '')
  const bad = unsendable(value)
  if (bad !== undefined) {
    throw new ProviderConfigError(`@rein/provider-openai config: "${key}" contains ${bad}, which cannot be sent in an HTTP header; remove it (check the variable or file it comes from). The value is not shown.`)
  }
  return value
}

/** An HTTP header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function resolveHeaders(v: unknown): Record<string, string> {
  if (v === undefined) return {}
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('headers', 'an object of header names to string values', v)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(v)) {
    if (!HEADER_NAME.test(name)) fail('headers', 'an object whose keys are HTTP header names', name)
    if (typeof value !== 'string') failType(`headers.${name}`, 'a string', value)
    out[name] = headerValue(`headers.${name}`, value)
  }
  return out
}

function resolveApiKey(v: unknown): string | undefined {
  if (v === undefined) return undefined
  if (typeof v !== 'string') failType('apiKey', 'a string, e.g. apiKey: ${env:DEEPSEEK_API_KEY}, or left out for a server that needs no key', v)
  const key = headerValue('apiKey', v)
  if (key === '') {
    throw new ProviderConfigError('@rein/provider-openai config: "apiKey" is empty; set it (e.g. apiKey: ${env:DEEPSEEK_API_KEY}) and check that the variable is exported, or leave apiKey out for a server that needs no key')
  }
  return key
}

/** Validates a raw config and fills in the defaults. Throws `ProviderConfigError` on the first problem. */
export function resolveConfig(raw: unknown): ResolvedConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProviderConfigError(`@rein/provider-openai config must be an object with at least "model" (got ${describe(raw)})`)
  }
  const r = raw as Record<string, unknown>
  const unknown = Object.keys(r).filter((k) => !(KNOWN_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) {
    throw new ProviderConfigError(`@rein/provider-openai config: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; the known keys are ${KNOWN_KEYS.join(', ')}`)
  }
  if (typeof r.model !== 'string' || r.model.trim() === '') fail('model', 'a non-empty string such as "deepseek-chat"', r.model)
  const apiKey = resolveApiKey(r.apiKey)
  if (r.baseURL !== undefined && typeof r.baseURL !== 'string') fail('baseURL', 'an http(s) URL', r.baseURL)
  const base = readBaseURL(r.baseURL ?? DEFAULT_BASE_URL)
  if (base.kind === 'bad') fail('baseURL', base.must, quotableURL(r.baseURL as string))
  const headers = resolveHeaders(r.headers)
  const secretHeaders = headerSecrets(headers)
  const config: ResolvedConfig = {
    baseURL: base.url.shown,
    endpoint: base.url.endpoint,
    shownEndpoint: base.url.shownEndpoint,
    model: r.model,
    headers,
    stream: optionalBoolean(r, 'stream') ?? true,
    maxRetries: optionalNumber(r, 'maxRetries', (n) => Number.isInteger(n) && n >= 0 && n <= 10, 'an integer from 0 to 10') ?? 2,
    retryBaseDelayMs: optionalNumber(r, 'retryBaseDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0') ?? 500,
    maxRetryDelayMs: optionalNumber(r, 'maxRetryDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0') ?? 60_000,
    credentials: apiKey !== undefined ? 'apiKey' : secretHeaders.length + base.url.secrets.length > 0 ? 'elsewhere' : 'none',
    redact: createRedactor([...(apiKey === undefined ? [] : [apiKey]), ...secretHeaders, ...base.url.secrets]),
  }
  if (apiKey !== undefined) config.apiKey = apiKey
  const temperature = optionalNumber(r, 'temperature', (n) => n >= 0 && n <= 2, 'a number from 0 to 2')
  if (temperature !== undefined) config.temperature = temperature
  const maxTokens = optionalNumber(r, 'maxTokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer')
  if (maxTokens !== undefined) config.maxTokens = maxTokens
  const parallel = optionalBoolean(r, 'parallelToolCalls')
  if (parallel !== undefined) config.parallelToolCalls = parallel
  return config
}
