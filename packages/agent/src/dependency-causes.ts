/**
 * Why each call of a batch settled `DEPENDENCY_FAILED` failed: the call whose own failure started
 * the chain, and its message. A dependent names the dependency that failed and carries the
 * starting message, capped, never the dependency's whole message, so a chain of N failed calls
 * costs O(N) text, not O(N²). Read and written by the scheduler as calls settle.
 */
import { DEPENDENCY_FAILED, Messages, codeOf, type ToolFailure } from '@rein/kernel'

/** The failure a `DEPENDENCY_FAILED` call passes on: the call whose own failure started it, and its message. */
export interface Cause {
  id: string
  message: string
}

/** The causes of one batch, by call index; a continuation starts from those it had. */
export class DependencyCauses {
  private causes: Map<number, Cause> | undefined

  constructor(before?: ReadonlyMap<number, Cause>) {
    if (before !== undefined && before.size > 0) this.causes = new Map(before)
  }

  /**
   * What call `index` (id `id`), which failed, passes on to its dependents: the cause it was
   * given when it was settled `DEPENDENCY_FAILED`, else its own failure.
   */
  of(index: number, id: string, result: ToolFailure): Cause {
    const inherited = codeOf(result) === DEPENDENCY_FAILED ? this.causes?.get(index) : undefined
    return inherited ?? { id, message: result.error.message }
  }

  /** Records that call `index` fails because `failed` did, started by `cause`; returns its message. */
  settle(index: number, failed: string, cause: Cause): string {
    (this.causes ??= new Map()).set(index, cause)
    return Messages.dependencyFailed(failed, cause.message, cause.id === failed ? undefined : cause.id)
  }
}
