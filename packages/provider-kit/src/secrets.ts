/**
 * Which configured values are secrets. Taking them out of text is `@rein/redact`'s job (every
 * spelling of a known value, and the common credential patterns); provider-kit re-exports its
 * `createRedactor` so that a provider needs one import.
 */
export { createRedactor, REDACTED, MIN_ANYWHERE_LENGTH, type Redactor } from '@rein/redact'

/**
 * The secret values among configured headers: every value, except those of the headers named
 * in `publicNames` (lower case), which a provider may declare not secret (`user-agent`...).
 */
export function secretHeaderValues(headers: Readonly<Record<string, string>>, publicNames: ReadonlySet<string> = new Set()): string[] {
  return Object.entries(headers).filter(([name]) => !publicNames.has(name.toLowerCase())).map(([, value]) => value)
}
