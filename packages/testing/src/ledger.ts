/**
 * A tool whose effect can be counted: each run appends one line `{ key, id, n }` to a ledger
 * file (one `appendFileSync`, so a process killed at any instant leaves whole lines), and whose
 * `reconcile` answers from that ledger by the call's idempotency key. For crash tests: the
 * ledger says how many times each call's effect really happened.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { defineTool, type ToolDefinition, type ToolExec } from '@rein/kernel'

/** One effect in the ledger. */
export interface LedgerLine {
  /** The idempotency key the call ran under. */
  key: string
  /** The call's id. */
  id: string
  /** The call's `n` argument (0 when absent). */
  n: number
}

export interface LedgerToolOptions {
  /** Default `ledger`. */
  name?: string
  /** Whether the tool has a `reconcile` (default true). */
  reconcile?: boolean
  /** Called in the body just before the effect (a crash test may stop the process there). */
  beforeEffect?(exec: ToolExec): void
  /** Called in the body just after the effect, before it returns. */
  afterEffect?(exec: ToolExec): void
}

/** Every line of the ledger at `path`, in order (none when the file does not exist). */
export function readLedger(path: string): LedgerLine[] {
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as LedgerLine)
}

/** `ledger({ n? })`: appends its line to the ledger at `path` and returns `{ id, n }`; exclusive. */
export function ledgerTool(path: string, options: LedgerToolOptions = {}): ToolDefinition {
  const tool = defineTool({
    name: options.name ?? 'ledger',
    description: 'Records one effect in the ledger.',
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    output: { schema: { type: 'object', required: ['id', 'n'] } },
    execute(args: { n?: number }, exec) {
      options.beforeEffect?.(exec)
      const line: LedgerLine = { key: exec.idempotencyKey, id: exec.id, n: args.n ?? 0 }
      appendFileSync(path, `${JSON.stringify(line)}\n`)
      options.afterEffect?.(exec)
      return { id: line.id, n: line.n }
    },
  })
  if (options.reconcile === false) return tool
  return {
    ...tool,
    reconcile({ idempotencyKey }) {
      const line = readLedger(path).find((l) => l.key === idempotencyKey)
      return line ? { ran: true, value: { id: line.id, n: line.n } } : { ran: false }
    },
  }
}
