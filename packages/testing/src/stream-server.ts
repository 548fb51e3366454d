/**
 * A server on 127.0.0.1 that streams one answer's server-sent events from a generator, as fast as
 * the client reads them (it waits for `drain`), stops writing once the client leaves, and keeps
 * the response open after the last event: its connection ends only when the client closes it (or
 * `close()`). `left` resolves when the client closed it; `sent()` counts the events written.
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running stream server. */
export interface StreamServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string
  /** Resolves when the client closed the connection of its request. */
  left: Promise<void>
  /** How many events were written. */
  sent(): number
  close(): Promise<void>
}

/** Starts the server; every request is answered with the events of `events()` (each one `data:` line). */
export async function startStreamServer(events: () => Iterable<string>): Promise<StreamServer> {
  let sent = 0
  let leave!: () => void
  const left = new Promise<void>((resolve) => { leave = resolve })
  const server = createServer(async (req, res) => {
    for await (const _ of req) { /* the request body is not looked at */ }
    res.on('close', () => leave())
    // Resolves when the client has read what was written, or left.
    const drained = () => new Promise<void>((resolve) => {
      const done = () => { res.off('drain', done); res.off('close', done); resolve() }
      res.on('drain', done)
      res.on('close', done)
    })
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (const data of events()) {
      if (res.destroyed) return
      sent++
      if (!res.write(`data: ${data}\n\n`)) await drained()
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    left,
    sent: () => sent,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
