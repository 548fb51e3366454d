/**
 * The rules every provider's `baseURL` follows: an http(s) URL, without a user name or password
 * (fetch cannot send them; credentials go in `apiKey` or `headers`) and without a fragment; its
 * root is origin and path without trailing slashes. What a provider does with the path and the
 * query is its own. A refused URL is quoted only in `quotableURL`'s form, which cuts the parts
 * that may hold a secret.
 */

/** Why a URL was refused. */
export type HttpURLProblem = 'not-http' | 'credentials' | 'fragment'

export type HttpURLReading =
  | { kind: 'ok', url: URL, root: string }
  | { kind: 'bad', problem: HttpURLProblem }

/** Parses a configured base URL; `root` is `<origin><path>` without trailing slashes. */
export function readHttpURL(raw: string): HttpURLReading {
  let url: URL
  try { url = new URL(raw) } catch { return { kind: 'bad', problem: 'not-http' } }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'bad', problem: 'not-http' }
  if (url.username !== '' || url.password !== '') return { kind: 'bad', problem: 'credentials' }
  if (url.hash !== '' || raw.includes('#')) return { kind: 'bad', problem: 'fragment' }
  return { kind: 'ok', url, root: `${url.origin}${url.pathname}`.replace(/\/+$/, '') }
}

/**
 * A configured URL that was refused, safe to quote: anything after `?` or `#`, and a user
 * name or password, is cut, since it may hold a secret.
 */
export function quotableURL(raw: string): string {
  return raw.replace(/[?#][\s\S]*$/, '?…').replace(/^([^/@]*\/\/)?[^/@]*@/, '$1…@')
}
