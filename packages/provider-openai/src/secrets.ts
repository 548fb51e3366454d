/**
 * Which configured header values are secret for an OpenAI-compatible server: all of them but
 * those of `PUBLIC_HEADERS`, so `Authorization`, Azure's `api-key`, `x-api-key` or a gateway's
 * own header are covered without being named. How secrets are taken out of text is the kit's
 * (`createRedactor`); which query values of `baseURL` are secret is `base-url.ts`'s.
 */
import { secretHeaderValues } from '@rein/provider-kit'

/** Header names whose values are not secret (lower case). */
export const PUBLIC_HEADERS: ReadonlySet<string> = new Set([
  'accept', 'content-type', 'user-agent', 'openai-organization', 'openai-project', 'openai-beta',
  'http-referer', 'x-title',
])

/** The secret values among configured headers: all but those named in `PUBLIC_HEADERS`. */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  return secretHeaderValues(headers, PUBLIC_HEADERS)
}
