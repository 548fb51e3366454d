/**
 * A stand-in for an OpenTelemetry collector: a local HTTP server on 127.0.0.1 that accepts
 * OTLP/HTTP JSON posts to `/v1/traces`, answers 200 with an empty export response, and keeps
 * every request so that an example or a test can read what was sent. Not a collector: it
 * decodes nothing but JSON and forwards nothing.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One OTLP span as the JSON encoding carries it (the fields read here). */
export interface OtlpSpan {
  name: string
  spanId: string
  parentSpanId?: string
  kind: number
  attributes: Array<{ key: string, value: Record<string, unknown> }>
}

export interface Collector {
  /** The traces endpoint, e.g. `http://127.0.0.1:4318/v1/traces`. */
  url: string
  /** Every request received, in order. */
  readonly requests: Array<{ method: string, path: string, contentType: string, body: string }>
  /** The spans of every JSON traces request received so far. */
  spans(): OtlpSpan[]
  close(): Promise<void>
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startCollector(): Promise<Collector> {
  const requests: Collector['requests'] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      requests.push({
        method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    spans: () => requests
      .filter((r) => r.path === '/v1/traces' && r.contentType.includes('json'))
      .flatMap((r) => (JSON.parse(r.body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }).resourceSpans)
      .flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
