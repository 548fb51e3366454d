/**
 * Where a request went, and the one door every error that may quote a server or a network
 * error goes through: `failWith` passes the message, every string property and the `cause`
 * through the site's redactor (the cause as a redacted copy), so no configured secret reaches a
 * message, property, stack or cause. Aborts are the one exception: their cause is the caller's.
 */
import type { ProviderError, ProviderErrorOptions } from './errors.js'
import { redactedCopy } from './safe-cause.js'
import type { Redactor } from './secrets.js'

/** Where a request went: what every error message names, and how secrets are kept out of it. */
export interface RequestSite {
  /** The base URL as messages show it (secret parts already replaced). */
  baseURL: string
  model: string
  /** Takes every configured secret out of a text. Runs on every message before it is thrown. */
  redact: Redactor
  /** What a `cause` keeps of a foreign error (see `redactedCopy`); every property, redacted, when unset. */
  keepInCause?: readonly string[]
}

/** The constructor of one of the error classes. */
export type ErrorClass<E extends ProviderError> = new (message: string, o?: ProviderErrorOptions) => E

/** Builds an error with its message, string properties and cause redacted. */
export function failWith<E extends ProviderError>(site: RequestSite, Kind: ErrorClass<E>, message: string, options: ProviderErrorOptions = {}): E {
  const safe: ProviderErrorOptions = { ...options }
  if (safe.errorType !== undefined) safe.errorType = site.redact(safe.errorType)
  if (safe.requestId !== undefined) safe.requestId = site.redact(safe.requestId)
  if (safe.cause !== undefined) safe.cause = redactedCopy(safe.cause, site.redact, site.keepInCause)
  return new Kind(site.redact(message), safe)
}
