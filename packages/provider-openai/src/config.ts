/**
 * The provider's config: its shape, its defaults, and its validation. `resolveConfig` runs
 * once, in `createProvider`, and either returns a complete config or throws a
 * `ProviderConfigError` naming the key, what it must be and what it got (never the key's
 * value for `apiKey`). Unknown keys are refused, so a typo fails the start instead of being ignored.
 */
import { ProviderConfigError } from './errors.js'

/** What `createProvider` accepts (the `provider.config` of `rein.yaml`). */
export interface OpenAIProviderConfig {
  /** The API root; `/chat/completions` is appended. Default: DeepSeek's `https://api.deepseek.com`. */
  baseURL?: string
  /** The bearer token. Required and non-empty (any placeholder works for servers that ignore it). */
  apiKey: string
  /** The model name, e.g. `deepseek-chat`. */
  model: string
  /** Extra request headers (they may override the defaults, not the body). */
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

/** The config after defaults: every field the provider reads is present. */
export interface ResolvedConfig {
  baseURL: string
  endpoint: string
  apiKey: string
  model: string
  headers: Record<string, string>
  stream: boolean
  maxRetries: number
  temperature?: number
  maxTokens?: number
  parallelToolCalls?: boolean
  retryBaseDelayMs: number
  maxRetryDelayMs: number
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

function resolveBaseURL(v: unknown): string {
  if (v === undefined) return DEFAULT_BASE_URL
  const must = 'an http(s) URL such as "https://api.deepseek.com" or "https://api.openai.com/v1"'
  if (typeof v !== 'string') fail('baseURL', must, v)
  let url: URL
  try { url = new URL(v) } catch { fail('baseURL', must, v) }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('baseURL', must, v)
  if (url.search || url.hash) fail('baseURL', `${must}, without a query or fragment`, v)
  return v.replace(/\/+$/, '')
}

function resolveHeaders(v: unknown): Record<string, string> {
  if (v === undefined) return {}
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('headers', 'an object of header names to string values', v)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(v)) {
    if (typeof value !== 'string') fail(`headers.${name}`, 'a string', value)
    out[name] = value
  }
  return out
}

/** Validates a raw config and fills in the defaults. Throws `ProviderConfigError` on the first problem. */
export function resolveConfig(raw: unknown): ResolvedConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProviderConfigError(`@rein/provider-openai config must be an object with at least "model" and "apiKey" (got ${describe(raw)})`)
  }
  const r = raw as Record<string, unknown>
  const unknown = Object.keys(r).filter((k) => !(KNOWN_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) {
    throw new ProviderConfigError(`@rein/provider-openai config: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; the known keys are ${KNOWN_KEYS.join(', ')}`)
  }
  if (typeof r.model !== 'string' || r.model.trim() === '') fail('model', 'a non-empty string such as "deepseek-chat"', r.model)
  if (typeof r.apiKey !== 'string') {
    const got = r.apiKey === undefined ? 'nothing' : `a ${typeof r.apiKey}`
    throw new ProviderConfigError(`@rein/provider-openai config: "apiKey" must be a string, e.g. apiKey: \${env:DEEPSEEK_API_KEY} (got ${got})`)
  }
  if (r.apiKey.trim() === '') {
    throw new ProviderConfigError('@rein/provider-openai config: "apiKey" is empty; set it (e.g. apiKey: ${env:DEEPSEEK_API_KEY}) and check that the variable is exported')
  }
  const baseURL = resolveBaseURL(r.baseURL)
  const config: ResolvedConfig = {
    baseURL,
    endpoint: `${baseURL}/chat/completions`,
    apiKey: r.apiKey,
    model: r.model,
    headers: resolveHeaders(r.headers),
    stream: optionalBoolean(r, 'stream') ?? true,
    maxRetries: optionalNumber(r, 'maxRetries', (n) => Number.isInteger(n) && n >= 0 && n <= 10, 'an integer from 0 to 10') ?? 2,
    retryBaseDelayMs: optionalNumber(r, 'retryBaseDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0') ?? 500,
    maxRetryDelayMs: optionalNumber(r, 'maxRetryDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0') ?? 60_000,
  }
  const temperature = optionalNumber(r, 'temperature', (n) => n >= 0 && n <= 2, 'a number from 0 to 2')
  if (temperature !== undefined) config.temperature = temperature
  const maxTokens = optionalNumber(r, 'maxTokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer')
  if (maxTokens !== undefined) config.maxTokens = maxTokens
  const parallel = optionalBoolean(r, 'parallelToolCalls')
  if (parallel !== undefined) config.parallelToolCalls = parallel
  return config
}
