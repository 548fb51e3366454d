/**
 * Who may call `rein mcp serve --http` (DNS rebinding protection, as the MCP transport spec
 * asks): a request's `Host` must name this server and its `Origin`, when present, an http(s)
 * origin of such a host; and the `host:port` the server is given.
 */
import { isIPv4, isIPv6 } from 'node:net'
import type { HttpOptions } from './http.js'

/** Parses `host:port` (`[::1]:8080` for IPv6). Throws a message naming the value and the form. */
export function parseHostPort(text: string): { host: string, port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text)
  const port = match ? Number(match[2]) : NaN
  if (!match || port > 65535) throw new Error(`--http ${JSON.stringify(text)}: expected <host:port>, such as 127.0.0.1:3333 (port 0 picks a free one)`)
  return { host: match[1].replace(/^\[|\]$/g, ''), port }
}

/**
 * Whether `host` (a name or an address, an IPv6 one with or without brackets) is loopback:
 * `localhost`, 127.0.0.0/8, `::1`, or 127.0.0.0/8 mapped to IPv6 (`::ffff:127.0.0.1`).
 */
export function isLoopback(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (name === 'localhost') return true
  if (isIPv4(name)) return name.startsWith('127.')
  const v6 = canonicalV6(name)
  return v6 === '[::1]' || (v6 !== undefined && /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(v6))
}

/** An IPv6 address in its canonical bracketed form (`[::ffff:7f00:1]`), or undefined. */
function canonicalV6(address: string): string | undefined {
  if (!isIPv6(address)) return undefined
  try {
    return new URL(`http://[${address}]/`).hostname
  } catch {
    return undefined
  }
}

/** A `Host` value split into its lowercase name (an IPv6 address canonical, in brackets) and port. */
function splitHost(text: string): { name: string, port?: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/i.exec(text)
  if (!match) return undefined
  const v6 = match[1].startsWith('[') ? canonicalV6(match[1].slice(1, -1)) : undefined
  if (match[1].startsWith('[') && !v6) return undefined
  return { name: v6 ?? match[1].toLowerCase(), ...(match[2] === undefined ? {} : { port: Number(match[2]) }) }
}

/**
 * The check of a request's `Host` and `Origin` for a server bound to `bound` and listening on
 * `port`: returns why the request is refused, or undefined. Throws at once on an entry of
 * `allowedHosts` or `allowedOrigins` that is not of their form.
 */
export function requestCheck(bound: string, port: number, options: Pick<HttpOptions, 'allowedHosts' | 'allowedOrigins'> = {}):
  (host: string | undefined, origin: string | undefined) => string | undefined {
  const extra = (options.allowedHosts ?? []).map((entry) => {
    const split = splitHost(entry)
    if (!split) throw new Error(`allowed host ${JSON.stringify(entry)}: expected <name> or <name:port>, an IPv6 address in brackets`)
    return split
  })
  const origins = new Set((options.allowedOrigins ?? []).map((entry) => {
    let url: URL | undefined
    try { url = new URL(entry) } catch { /* refused below */ }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || entry.replace(/\/$/, '') !== url.origin) {
      throw new Error(`allowed origin ${JSON.stringify(entry)}: expected <http or https>://<host>[:port], such as http://localhost:5173`)
    }
    return url.origin
  }))
  // The bound address answers too, unless it is a wildcard (0.0.0.0, ::), which no Host names.
  const own = isWildcard(bound) ? undefined : splitHost(isIPv6(bound) ? `[${bound}]` : bound)?.name
  const allowed = (name: string, at: number) =>
    ((isLoopback(name) || name === own) && at === port) || extra.some((e) => e.name === name && (e.port === undefined || e.port === at))

  return (host, origin) => {
    const split = host === undefined ? undefined : splitHost(host)
    if (!split || !allowed(split.name, split.port ?? 80)) {
      return `Host header ${JSON.stringify(host ?? '')} is not one this server answers to (DNS rebinding protection); ` +
        'to answer it, allow it (rein mcp serve --allow-host <host>)'
    }
    if (origin === undefined) return undefined
    let url: URL | undefined
    try { url = new URL(origin) } catch { /* refused below */ }
    const web = url && (url.protocol === 'http:' || url.protocol === 'https:') ? url : undefined
    if (web && (origins.has(web.origin) || allowed(web.hostname, web.port ? Number(web.port) : web.protocol === 'https:' ? 443 : 80))) return undefined
    return `Origin ${JSON.stringify(origin)} is not allowed (DNS rebinding protection); to accept it, allow it (rein mcp serve --allow-origin <origin>)`
  }
}

function isWildcard(host: string): boolean {
  return host === '' || host === '0.0.0.0' || canonicalV6(host) === '[::]'
}
