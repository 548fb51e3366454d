/**
 * The running total of one batch's inline bytes, for `maxBatchBytes`. A batch is the calls of
 * one assistant message: the same `exec.agent` and `exec.turn`. The agent runs post-execute
 * serially in model order within a batch, so the total a call sees is exactly that of the
 * calls before it, and the same batch always gets the same answers. A call without a turn,
 * or made by another call (`exec.parent`), is a batch of its own. One batch per agent name is
 * kept: a new turn, or an index already seen (a fresh session starting again at turn 1),
 * starts a new one, so the ledger never grows with the length of a run.
 */
import type { ToolExec } from '@rein/kernel'

/** One call's place in its batch. */
export interface BatchShare {
  /** How many bytes the batch can still show inline (0 when it is spent). */
  readonly room: number
  /** Records the bytes this call shows inline. Call it once, with what the model will see. */
  charge(bytes: number): void
}

interface OpenBatch {
  turn: number
  used: number
  /** Indexes already charged in this batch. */
  seen: Set<number>
}

export class BatchLedger {
  private readonly open = new Map<string, OpenBatch>()

  constructor(private readonly budget: number) {}

  /** The share of `exec` in its batch; post-execute calls it once per call, in model order. */
  enter(exec: Pick<ToolExec, 'agent' | 'turn' | 'index' | 'parent'>): BatchShare {
    const { turn, index } = exec
    if (turn === undefined || exec.parent !== undefined) return { room: this.budget, charge: () => {} }
    const key = exec.agent ?? ''
    let batch = this.open.get(key)
    if (!batch || batch.turn !== turn || (index !== undefined && batch.seen.has(index))) {
      batch = { turn, used: 0, seen: new Set() }
      this.open.set(key, batch)
    }
    if (index !== undefined) batch.seen.add(index)
    const current = batch
    return {
      room: Math.max(0, this.budget - current.used),
      charge: (bytes) => { current.used += bytes },
    }
  }
}
