/**
 * Appends lines to the audit file. Each line is appended synchronously, in the order lines are
 * given, so the file never lags behind the calls and nothing is pending at dispose or exit.
 * The parent directory is created (0700) on first use, the file 0600. A failure never throws:
 * the first one is reported through `warn`, later ones are silent, and every later line is
 * still attempted.
 */
import { dirname } from 'node:path'
import { appendPrivateSync, makePrivateDirSync } from './private-file.js'

/** Returns `append(line)` for `file`. */
export function createAppender(file: string, warn: (message: string) => void): (line: string) => void {
  let prepared = false
  let warned = false
  return (line) => {
    try {
      if (!prepared) {
        makePrivateDirSync(dirname(file))
        prepared = true
      }
      appendPrivateSync(file, `${line}\n`)
    } catch (error) {
      if (warned) return
      warned = true
      const reason = error instanceof Error ? error.message : String(error)
      warn(`cannot append to the audit file ${file}: ${reason}; audit lines are being lost (reported once)`)
    }
  }
}
