/**
 * The provider's config: its shape, its defaults and its validation. `resolveConfig` runs once,
 * in `createProvider`, and returns a complete config or throws a `ProviderConfigError` that
 * names the key, what it must be and how to fix it — never quoting the `apiKey` or a header
 * value (they are secrets: only their type or their problem is named). It also builds the
 * redactor for those secrets. The checks every provider shares (headers, the key, retries,
 * what any base URL must be) are the kit's; the rules of the server root are this file's.
 */
import {
  ConfigCheck, createRedactor, quotableURL, readHttpURL, secretHeaderValues, type HttpURLProblem, type Redactor,
  type Transport, type TransportConfig,
} from '@rein/provider-kit'

/** What `createProvider` accepts (the `provider.config` of `rein.yaml`). */
export interface AnthropicProviderConfig extends TransportConfig {
  /** Sent as `x-api-key`. May be left out only when `headers` carries the credential (`x-api-key` or `authorization`). */
  apiKey?: string
  /** The model name, e.g. `claude-sonnet-4-5`. */
  model: string
  /** Sent as `max_tokens`: the longest answer, in tokens. Required, as by the API. */
  maxTokens: number
  /** The server root, as in the official SDK; requests go to `<baseURL>/v1/messages`. Default `https://api.anthropic.com`. */
  baseURL?: string
  /** Sent as `temperature` (0 to 1). */
  temperature?: number
  /** Extra request headers (e.g. `anthropic-beta`); they may replace the defaults. Every value is treated as a secret. */
  headers?: Record<string, string>
  /** Sent as `anthropic-version`. Default `2023-06-01`. */
  anthropicVersion?: string
  /** `false` sends `tool_choice: { type: 'auto', disable_parallel_tool_use: true }` when tools are offered. Unset: the server's default (parallel). */
  parallelToolCalls?: boolean
}

/** The config after defaults: every field the provider reads is present. */
export interface ResolvedConfig extends Transport {
  /** The server root as messages show it, without a trailing slash. */
  baseURL: string
  /** `<baseURL>/v1/messages`. */
  endpoint: string
  apiKey?: string
  model: string
  maxTokens: number
  temperature?: number
  headers: Record<string, string>
  anthropicVersion: string
  parallelToolCalls?: boolean
  /** Takes the apiKey and every header value out of a text. */
  redact: Redactor
}

export const DEFAULT_BASE_URL = 'https://api.anthropic.com'
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01'

const KNOWN_KEYS = [
  'apiKey', 'model', 'maxTokens', 'baseURL', 'stream', 'maxRetries', 'temperature', 'headers',
  'anthropicVersion', 'parallelToolCalls', 'retryBaseDelayMs', 'maxRetryDelayMs', 'idleTimeoutMs',
] as const

const check: ConfigCheck = new ConfigCheck('@rein/provider-anthropic')

const KEY_ADVICE = {
  mustBe: 'a string, e.g. apiKey: ${env:ANTHROPIC_API_KEY}',
  whenEmpty: 'set it (e.g. apiKey: ${env:ANTHROPIC_API_KEY}) and check that the variable holds the key',
}

/** The key, or undefined when the headers carry the credential themselves. */
function resolveApiKey(v: unknown, headers: Record<string, string>): string | undefined {
  const sendsOwn = Object.keys(headers).some((n) => ['x-api-key', 'authorization'].includes(n.toLowerCase()))
  if (v === undefined) {
    if (sendsOwn) return undefined
    check.problem('"apiKey" is missing; set it, e.g. apiKey: ${env:ANTHROPIC_API_KEY} (or send the credential yourself as headers.x-api-key or headers.authorization)')
  }
  return check.secret('apiKey', v, KEY_ADVICE)
}

const ROOT_MUST = `the server root, an http(s) URL such as "${DEFAULT_BASE_URL}"`

const NO_QUERY = (quoted: string) => `"baseURL" must not have a query or fragment (got ${quoted}): requests go to <baseURL>/v1/messages`

/** Why the kit refused a `baseURL`, as this provider words it. */
const REFUSED: Record<HttpURLProblem, (quoted: string) => string> = {
  'not-http': (quoted) => `"baseURL" must be ${ROOT_MUST} (got ${quoted})`,
  credentials: (quoted) => `"baseURL" must not hold a user name or password (got ${quoted}); send credentials with apiKey or headers`,
  fragment: NO_QUERY,
}

/** The root without a trailing slash; refused when requests to `<root>/v1/messages` could not work. */
function resolveBaseURL(v: unknown): string {
  if (v === undefined) return DEFAULT_BASE_URL
  if (typeof v !== 'string') check.fail('baseURL', ROOT_MUST, v)
  const quoted = check.describe(quotableURL(v))
  const reading = readHttpURL(v)
  if (reading.kind === 'bad') check.problem(REFUSED[reading.problem](quoted))
  if (reading.url.search !== '' || v.includes('?')) check.problem(NO_QUERY(quoted))
  const { root } = reading
  if (/\/v1(\/messages)?$/.test(root)) {
    check.problem(`"baseURL" is the server root, as in the official SDK: requests go to <baseURL>/v1/messages, so drop the trailing ${root.endsWith('/messages') ? '/v1/messages' : '/v1'} (got ${quoted})`)
  }
  return root
}

/**
 * Validates a raw config and fills in the defaults. Throws `ProviderConfigError` on the first
 * problem, with the key and header values taken out, whatever field they are quoted from.
 */
export function resolveConfig(raw: unknown): ResolvedConfig {
  const { apiKey, headers } = (typeof raw === 'object' && raw !== null ? raw : {}) as { apiKey?: unknown, headers?: unknown }
  const values = typeof headers === 'object' && headers !== null ? Object.values(headers) as unknown[] : []
  return check.hiding([apiKey, ...values], () => resolveChecked(raw))
}

function resolveChecked(raw: unknown): ResolvedConfig {
  const r = check.object(raw, '"model", "maxTokens" and "apiKey"')
  check.knownKeys(r, KNOWN_KEYS)
  if (typeof r.model !== 'string' || r.model.trim() === '') check.fail('model', 'a non-empty string such as "claude-sonnet-4-5"', r.model)
  if (r.maxTokens === undefined) check.problem('"maxTokens" is required: the Messages API needs a limit on the length of each answer; set e.g. maxTokens: 4096')
  const maxTokens = check.number(r, 'maxTokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer such as 4096')!
  const headers = check.headers(r.headers, 'an object of header names to string values, e.g. { anthropic-beta: "..." }')
  const apiKey = resolveApiKey(r.apiKey, headers)
  const version = r.anthropicVersion ?? DEFAULT_ANTHROPIC_VERSION
  if (typeof version !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(version)) check.fail('anthropicVersion', `an API version date such as "${DEFAULT_ANTHROPIC_VERSION}"`, version)
  const baseURL = resolveBaseURL(r.baseURL)
  const config: ResolvedConfig = {
    baseURL,
    endpoint: `${baseURL}/v1/messages`,
    model: r.model,
    maxTokens,
    ...check.transport(r),
    headers,
    anthropicVersion: version,
    redact: createRedactor([...(apiKey === undefined ? [] : [apiKey]), ...secretHeaderValues(headers)]),
  }
  if (apiKey !== undefined) config.apiKey = apiKey
  const temperature = check.number(r, 'temperature', (n) => n >= 0 && n <= 1, 'a number from 0 to 1')
  if (temperature !== undefined) config.temperature = temperature
  const parallel = check.boolean(r, 'parallelToolCalls')
  if (parallel !== undefined) config.parallelToolCalls = parallel
  return config
}
