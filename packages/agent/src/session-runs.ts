/**
 * The sessions that a run of this process is using right now, by store id. A run reads the
 * session's approvals when it starts and may park a call again under the very request it read,
 * recording that request once more; an answer written meanwhile would come before that record,
 * and the session would no longer load. So `answerApproval` refuses to write into a session held
 * here, and the answer is given after the run returns. Shared by every copy of this module in
 * the process (a bundle and the sources it was built from), like the JSONL writer locks.
 */

const runs: Map<string, number> = ((globalThis as Record<symbol, unknown>)[Symbol.for('rein.agent.sessionRuns')] ??= new Map<string, number>()) as Map<string, number>

/** Marks session `id` as used by a run until the returned function is called (once; later calls do nothing). */
export function enterRun(id: string): () => void {
  runs.set(id, (runs.get(id) ?? 0) + 1)
  let left = false
  return () => {
    if (left) return
    left = true
    const count = runs.get(id)! - 1
    if (count === 0) runs.delete(id)
    else runs.set(id, count)
  }
}

/** Whether a run of this process is using session `id` now. */
export function inRun(id: string): boolean {
  return runs.has(id)
}
