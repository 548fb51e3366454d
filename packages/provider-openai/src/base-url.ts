/**
 * Reads `baseURL` into the endpoint requests go to and the form messages show. A query is kept
 * on the endpoint (Azure's `?api-version=`, a gateway's `?key=`); its values are secrets, so the
 * shown form replaces each with `[REDACTED]`, except the names in `PUBLIC_QUERY_PARAMS`. What
 * any base URL must be (http(s), no credentials, no fragment) is the kit's `readHttpURL`.
 */
import { readHttpURL, REDACTED, type HttpURLProblem } from '@rein/provider-kit'

/** Query parameters whose values are not secret, shown as they are. */
export const PUBLIC_QUERY_PARAMS: ReadonlySet<string> = new Set(['api-version'])

/** A usable base URL. */
export interface BaseURL {
  /** The URL as messages show it: no trailing slash, secret query values replaced. */
  shown: string
  /** Where requests go: `<path>/chat/completions` with the query as given. Holds secrets. */
  endpoint: string
  /** The endpoint as messages show it. */
  shownEndpoint: string
  /** The query values to redact: each as the URL spells it and decoded. */
  secrets: string[]
}

export type BaseURLReading =
  | { kind: 'ok', url: BaseURL }
  | { kind: 'bad', must: string }

const MUST = 'an http(s) URL such as "https://api.deepseek.com" or "https://api.openai.com/v1"'

/** What a refused `baseURL` must be, by why it was refused. */
const MUSTS: Record<HttpURLProblem, string> = {
  'not-http': MUST,
  credentials: `${MUST}, without a user name or password (send credentials with apiKey or headers)`,
  fragment: `${MUST}, without a fragment`,
}

/** Parses a configured `baseURL`. */
export function readBaseURL(raw: string): BaseURLReading {
  const reading = readHttpURL(raw)
  if (reading.kind === 'bad') return { kind: 'bad', must: MUSTS[reading.problem] }
  const { url, root: base } = reading
  const query = url.search.slice(1)
  const shownQuery = query === '' ? '' : `?${query.split('&').map(showParam).join('&')}`
  return {
    kind: 'ok',
    url: {
      shown: `${base}${shownQuery}`,
      endpoint: `${base}/chat/completions${url.search}`,
      shownEndpoint: `${base}/chat/completions${shownQuery}`,
      secrets: query === '' ? [] : query.split('&').flatMap(paramSecrets),
    },
  }
}

/** `name=value` with the value replaced unless the name is public; a bare `token` is all value. */
function showParam(param: string): string {
  const eq = param.indexOf('=')
  if (eq === -1) return param === '' ? '' : REDACTED
  const name = param.slice(0, eq)
  return isPublic(name) ? param : `${name}=${REDACTED}`
}

function paramSecrets(param: string): string[] {
  const eq = param.indexOf('=')
  if (eq !== -1 && isPublic(param.slice(0, eq))) return []
  const value = eq === -1 ? param : param.slice(eq + 1)
  return [value, decodeForm(value)]
}

function isPublic(rawName: string): boolean {
  return PUBLIC_QUERY_PARAMS.has(decodeForm(rawName).toLowerCase())
}

/** Decodes a query component as a server would (`+` is a space); the text itself if malformed. */
function decodeForm(text: string): string {
  try { return decodeURIComponent(text.replace(/\+/g, ' ')) } catch { return text }
}
