import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { startPostgres, whyNoPostgres } from '../../src/index.js'

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
const listening = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1')
  socket.once('connect', () => { socket.destroy(); resolve(true) })
  socket.once('error', () => resolve(false))
})

const missing = whyNoPostgres()

describe('startPostgres', () => {
  if (missing !== undefined) {
    console.warn(`startPostgres: skipped, ${missing}`)
    it.skip(`needs the PostgreSQL server binaries: ${missing}`)
    return
  }

  it('starts a server on a free 127.0.0.1 port that stops, starts again on the same port, and is gone after close', async () => {
    const server = await startPostgres({ password: 'p@ss w/rd' })
    expect(server.url).toBe(`postgres://rein:p%40ss%20w%2Frd@127.0.0.1:${server.port}/postgres`)
    expect(await listening(server.port)).toBe(true)
    await server.stop()
    expect(await listening(server.port)).toBe(false)
    await server.start()
    expect(await listening(server.port)).toBe(true)
    await server.close()
    expect(await listening(server.port)).toBe(false)
  }, 60_000)
})
