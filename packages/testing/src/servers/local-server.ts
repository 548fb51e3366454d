/**
 * What every throwaway test server shares: a free port on 127.0.0.1, the rule that a missing
 * server binary skips tests only outside CI, and the tail of a server's log for an error.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** `missing` (why the server cannot start) for a test to skip with; under `CI=true`, thrown instead. */
export function missingOutsideCi(missing: string | undefined): string | undefined {
  if (missing !== undefined && process.env.CI === 'true') {
    throw new Error(`${missing}; CI=true requires it (.ci/run installs it when missing)`)
  }
  return missing
}

/** The last lines of a server's log, on one line, for an error message. */
export function lastLines(log: string): string {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').slice(-5).join(' | ') || 'its log is empty'
  } catch {
    return 'it wrote no log'
  }
}
