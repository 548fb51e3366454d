/**
 * `wireProvider(config, format)`: the provider every HTTP provider's `createProvider` returns
 * once it has resolved its config. The provider package says only what is particular to its
 * wire (`WireFormat`: where requests go and with which credential, which answers retry, how a
 * failed answer reads, how a request is built and an answer read); the kit adds the rest of the
 * endpoint from the config every wire shares (the user's headers, the retry keys, the idle
 * timeout) and `stream`/`generate` from `answers`. Runs once, when a harness is set up.
 */
import type { AssistantMessage, GenerateRequest, Provider } from '@rein/kernel'
import { answers, type AnswerEvent, type Assembler } from './answers.js'
import type { Transport } from './config-checks.js'
import type { ProviderError } from './errors.js'
import type { Endpoint, HttpDeps, HttpFailure } from './http.js'
import type { RetryPolicy } from './retry.js'
import type { RequestSite } from './site.js'

/** A provider over one wire, with the model and server it talks to (for display). */
export interface WireProvider<M extends AssistantMessage = AssistantMessage> extends Provider {
  readonly model: string
  /** The server as messages show it: no secret in it. */
  readonly baseURL: string
  generate(req: GenerateRequest): Promise<M>
  stream(req: GenerateRequest): AsyncIterable<AnswerEvent<M>>
}

/** The resolved config keys every wire has. */
export interface WireConfig extends Transport {
  model: string
  /** The server as messages show it: no secret in it. */
  baseURL: string
  /** The user's headers, sent last: they may replace any default. */
  headers: Readonly<Record<string, string>>
}

/** Where one wire sends its requests. */
export interface WireTarget {
  /** Where requests go; may hold secrets (a query), so it never appears in a message. */
  url: string
  /** `url` as messages show it. */
  shownURL: string
  /** The wire's own headers (its credential, its version). */
  headers: Readonly<Record<string, string>>
  /** The response header that carries the server's request id, when the wire has one. */
  requestIdHeader?: string
}

/** What a provider package says about its wire, for its resolved config `C`. */
export interface WireFormat<C extends WireConfig, S extends RequestSite, M extends AssistantMessage> {
  /** The request site of a config, named by every error message. */
  site(config: C): S
  /** Where requests go, and with which credential. */
  target(config: C): WireTarget
  /** Which answers may succeed if sent again, and whether the server's `x-should-retry` wins. */
  retry: Pick<RetryPolicy, 'retryableStatus' | 'honourShouldRetry'>
  /** The error for a non-2xx answer, once the retries its status allows are spent. */
  classify(failure: HttpFailure, site: S): ProviderError
  /** The request body of one generation. */
  body(config: C, req: GenerateRequest, stream: boolean): unknown
  /** The body text of an answer that arrived whole -> the message. */
  parse(text: string, site: S): M
  /** A fresh assembler for one streamed answer. */
  assembler(site: S): Assembler<M>
}

/** The endpoint of `config` on `format`'s wire. */
export function wireEndpoint<C extends WireConfig, S extends RequestSite, M extends AssistantMessage>(
  config: C, format: WireFormat<C, S, M>, site: S,
): Endpoint {
  const { maxRetries, retryBaseDelayMs, maxRetryDelayMs, idleTimeoutMs } = config
  return {
    ...format.target(config),
    configuredHeaders: config.headers,
    site,
    retry: { maxRetries, retryBaseDelayMs, maxRetryDelayMs, ...format.retry },
    classify: (failure) => format.classify(failure, site),
    idleTimeoutMs,
  }
}

/**
 * The provider for a resolved `config` on `format`'s wire. `deps` replaces fetch, the clock, the
 * dice or the sleep (tests only).
 */
export function wireProvider<C extends WireConfig, S extends RequestSite, M extends AssistantMessage>(
  config: C, format: WireFormat<C, S, M>, deps: Partial<HttpDeps> = {},
): WireProvider<M> {
  const site = format.site(config)
  return {
    model: config.model,
    baseURL: config.baseURL,
    ...answers({
      endpoint: wireEndpoint(config, format, site),
      stream: config.stream,
      body: (req, stream) => format.body(config, req, stream),
      parse: (text) => format.parse(text, site),
      assembler: () => format.assembler(site),
    }, deps),
  }
}
