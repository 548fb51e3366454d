/**
 * The provider's config: its shape, its defaults, and its validation. `resolveConfig` runs
 * once, in `createProvider`, and either returns a complete config or throws a
 * `ProviderConfigError` naming the key, what it must be and what it got — never a secret's
 * value (`apiKey`, header values, query values of `baseURL`). It also builds the redactor for
 * those secrets. The checks every provider shares (headers, the key, retries) are the kit's.
 */
import { ConfigCheck, createRedactor, quotableURL, type Redactor, type Transport, type TransportConfig } from '@rein/provider-kit'
import { readBaseURL } from './base-url.js'
import { headerSecrets, PUBLIC_HEADERS } from './secrets.js'

/** What `createProvider` accepts (the `provider.config` of `rein.yaml`). */
export interface OpenAIProviderConfig extends TransportConfig {
  /** The API root; `/chat/completions` is appended to its path, a query is kept. Default: DeepSeek's `https://api.deepseek.com`. */
  baseURL?: string
  /** The bearer token. Leave it out for a server that needs none (Ollama, llama.cpp); no `Authorization` is sent then. */
  apiKey?: string
  /** The model name, e.g. `deepseek-chat`. */
  model: string
  /** Extra request headers (they may override the defaults, not the body). Values are secret unless the name is in `PUBLIC_HEADERS`. */
  headers?: Record<string, string>
  temperature?: number
  /** Sent as `max_tokens`. */
  maxTokens?: number
  /** Sent as `parallel_tool_calls` when tools are offered. Unset: the server's default. */
  parallelToolCalls?: boolean
}

/** What the request proves itself with (`elsewhere`: secret headers or query values), for the advice an authentication error gives. */
export type Credentials = 'apiKey' | 'elsewhere' | 'none'

/** The config after defaults: every field the provider reads is present. */
export interface ResolvedConfig extends Transport {
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
  temperature?: number
  maxTokens?: number
  parallelToolCalls?: boolean
  credentials: Credentials
  /** Takes the apiKey, secret header values and secret query values out of a text. */
  redact: Redactor
}

/** The default API root. */
export const DEFAULT_BASE_URL = 'https://api.deepseek.com'

const KNOWN_KEYS = [
  'baseURL', 'apiKey', 'model', 'headers', 'stream', 'maxRetries', 'temperature', 'maxTokens',
  'parallelToolCalls', 'retryBaseDelayMs', 'maxRetryDelayMs', 'idleTimeoutMs',
] as const

const check: ConfigCheck = new ConfigCheck('@rein/provider-openai')

const KEY_ADVICE = {
  mustBe: 'a string, e.g. apiKey: ${env:DEEPSEEK_API_KEY}, or left out for a server that needs no key',
  whenEmpty: 'set it (e.g. apiKey: ${env:DEEPSEEK_API_KEY}) and check that the variable is exported, or leave apiKey out for a server that needs no key',
}

/**
 * Validates a raw config and fills in the defaults. Throws `ProviderConfigError` on the first
 * problem, with the key and secret header values taken out, whatever field they are quoted from.
 */
export function resolveConfig(raw: unknown): ResolvedConfig {
  return check.hiding(credentialsOf(raw), () => resolveChecked(raw))
}

/** The credentials of a raw config, as written: `apiKey` and every secret header value. */
function credentialsOf(raw: unknown): unknown[] {
  const { apiKey, headers } = (typeof raw === 'object' && raw !== null ? raw : {}) as { apiKey?: unknown, headers?: unknown }
  const named = typeof headers === 'object' && headers !== null ? Object.entries(headers) : []
  return [apiKey, ...named.filter(([name]) => !PUBLIC_HEADERS.has(name.toLowerCase())).map(([, value]) => value as unknown)]
}

function resolveChecked(raw: unknown): ResolvedConfig {
  const r = check.object(raw, '"model"')
  check.knownKeys(r, KNOWN_KEYS)
  if (typeof r.model !== 'string' || r.model.trim() === '') check.fail('model', 'a non-empty string such as "deepseek-chat"', r.model)
  const apiKey = r.apiKey === undefined ? undefined : check.secret('apiKey', r.apiKey, KEY_ADVICE)
  if (r.baseURL !== undefined && typeof r.baseURL !== 'string') check.fail('baseURL', 'an http(s) URL', r.baseURL)
  const base = readBaseURL(r.baseURL ?? DEFAULT_BASE_URL)
  if (base.kind === 'bad') check.fail('baseURL', base.must, quotableURL(r.baseURL as string))
  const headers = check.headers(r.headers)
  const secretHeaders = headerSecrets(headers)
  const config: ResolvedConfig = {
    baseURL: base.url.shown,
    endpoint: base.url.endpoint,
    shownEndpoint: base.url.shownEndpoint,
    model: r.model,
    headers,
    ...check.transport(r),
    credentials: apiKey !== undefined ? 'apiKey' : secretHeaders.length + base.url.secrets.length > 0 ? 'elsewhere' : 'none',
    redact: createRedactor([...(apiKey === undefined ? [] : [apiKey]), ...secretHeaders, ...base.url.secrets]),
  }
  if (apiKey !== undefined) config.apiKey = apiKey
  const temperature = check.number(r, 'temperature', (n) => n >= 0 && n <= 2, 'a number from 0 to 2')
  if (temperature !== undefined) config.temperature = temperature
  const maxTokens = check.number(r, 'maxTokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer')
  if (maxTokens !== undefined) config.maxTokens = maxTokens
  const parallel = check.boolean(r, 'parallelToolCalls')
  if (parallel !== undefined) config.parallelToolCalls = parallel
  return config
}
