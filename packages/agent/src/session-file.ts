/**
 * Reading a session log file (JSONL, one entry per line). It works on bytes, never on decoded
 * text, so every offset is a byte offset: a torn tail (the last line, without its newline and
 * not valid JSON: a write a crash cut short) ends at exactly the byte where the whole lines
 * end, whatever those lines hold. Every whole line must be a valid entry, in `seq` order;
 * anything else is damage, thrown as `SessionLogError` (`<file>:<line>: <what is wrong>`), and so
 * is an approval entry that breaks the rules of approvals (`approval-entries.ts`): a forged answer.
 * Nothing is skipped, and nothing here writes.
 */
import { isUtf8 } from 'node:buffer'
import { readSessionFile } from './jsonl-file.js'
import type { SessionEntry } from './session.js'
import { ApprovalLedger } from './approval-entries.js'
import { sessionEntryProblem } from './session-entry.js'

/** A damaged session log: `message` is `<file>:<line>: <problem>`. */
export class SessionLogError extends Error {
  override readonly name = 'SessionLogError'

  constructor(readonly file: string, readonly line: number, readonly problem: string) {
    super(`${file}:${line}: ${problem}`)
  }
}

/** What a session log holds. */
export interface SessionLogContents {
  /** Every entry, in `seq` order. */
  entries: SessionEntry[]
  /** The length in bytes of the whole lines: where a torn tail, if any, begins. */
  validBytes: number
  /** The length of the file in bytes (more than `validBytes` by the torn tail's length). */
  totalBytes: number
  /** The last entry is whole but lacks its newline: the next append must write one first. */
  unterminated: boolean
}

const NEWLINE = 0x0a
const OPEN_BRACE = 0x7b
const NOT_JSON: unique symbol = Symbol('not JSON')

/**
 * Parses a session log (its bytes; a string is taken as UTF-8). `file` names it in errors.
 * Throws `SessionLogError` at the first line that is not a valid entry in `seq` order.
 */
export function parseSessionLog(data: Uint8Array | string, file: string): SessionLogContents {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const entries: SessionEntry[] = []
  const ledger = new ApprovalLedger()
  let start = 0
  for (let line = 1; start < bytes.length; line++) {
    const newline = bytes.indexOf(NEWLINE, start)
    if (newline === -1) {
      const tail = bytes.subarray(start)
      const value = parseJson(tail)
      // A torn tail is what an interrupted append leaves after whole entries, or as the first
      // line: the start of an entry (`{…`) or the zeros a crash can leave. A file whose only line
      // is other text (a one-line token file given as the session path) is refused, never cut.
      if (value === NOT_JSON && (entries.length > 0 || tail[0] === OPEN_BRACE || tail[0] === 0)) {
        return { entries, validBytes: start, totalBytes: bytes.length, unterminated: false }
      }
      if (value === NOT_JSON) throw new SessionLogError(file, line, 'not a JSON session entry, nor the start of one an interrupted append left (is this a session log?)')
      if (!isUtf8(tail)) throw new SessionLogError(file, line, 'not valid UTF-8 text')
      entries.push(checked(value, file, line, entries.at(-1)?.seq, ledger))
      return { entries, validBytes: bytes.length, totalBytes: bytes.length, unterminated: true }
    }
    const text = bytes.subarray(start, newline)
    if (text.length === 0) throw new SessionLogError(file, line, 'empty line, expected a session entry')
    if (!isUtf8(text)) throw new SessionLogError(file, line, 'not valid UTF-8 text')
    const value = parseJson(text)
    if (value === NOT_JSON) throw new SessionLogError(file, line, 'not a JSON session entry (the line is not valid JSON)')
    entries.push(checked(value, file, line, entries.at(-1)?.seq, ledger))
    start = newline + 1
  }
  return { entries, validBytes: bytes.length, totalBytes: bytes.length, unterminated: false }
}

/**
 * Reads and parses the session log at `path` without changing it (and without its writer
 * lock: a writer may be appending): a torn tail is left out of `entries` (and shows as
 * `totalBytes > validBytes`). Throws `SessionLogError` on damage, and an error naming the
 * path when it is not a regular file (a FIFO is never waited on).
 */
export async function readSession(path: string): Promise<SessionLogContents> {
  return parseSessionLog(await readSessionFile(path), path)
}

function checked(value: unknown, file: string, line: number, previousSeq: number | undefined, ledger: ApprovalLedger): SessionEntry {
  const problem = sessionEntryProblem(value, previousSeq) ?? ledger.problem(value as SessionEntry)
  if (problem !== undefined) throw new SessionLogError(file, line, problem)
  return value as SessionEntry
}

function parseJson(text: Buffer): unknown {
  try {
    return JSON.parse(text.toString('utf8'))
  } catch {
    return NOT_JSON
  }
}
