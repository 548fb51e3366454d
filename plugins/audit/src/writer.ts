/**
 * Appends lines to the audit file. Each line is appended synchronously, in the order lines are
 * given, so the file never lags behind the calls and nothing is pending at dispose or exit.
 * The parent directory is created on first use. A failure never throws: the first one is
 * reported through `warn`, later ones are silent, and every later line is still attempted.
 */
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

/** Returns `append(line)` for `file`. */
export function createAppender(file: string, warn: (message: string) => void): (line: string) => void {
  let prepared = false
  let warned = false
  return (line) => {
    try {
      if (!prepared) {
        mkdirSync(dirname(file), { recursive: true })
        prepared = true
      }
      appendFileSync(file, `${line}\n`, 'utf8')
    } catch (error) {
      if (warned) return
      warned = true
      const reason = error instanceof Error ? error.message : String(error)
      warn(`cannot append to the audit file ${file}: ${reason}; audit lines are being lost (reported once)`)
    }
  }
}
