/**
 * Tracks the calls that may change the world (every call of a tool not marked `idempotent`,
 * unless configured as `pure`). Guarantees: `onStart` runs before such a call's inner layers
 * do, and a run that overlapped such a call in any way is never reported `quiet`, so a result
 * that may predate a write is never stored. No timers, no global state: one per plugin instance.
 */

/** Counts writes: the generation moves when one starts and again when it ends. */
export class Writes {
  private generation = 0
  private running = 0

  /** `onStart` runs synchronously as each write begins (the cache clears itself there). */
  constructor(private readonly onStart: () => void) {}

  /** Taken when a run begins; pass it to `quietSince` when the run ends. */
  mark(): number {
    return this.generation
  }

  /** True when no write started or ended since `mark` and none is running now. */
  quietSince(mark: number): boolean {
    return this.running === 0 && this.generation === mark
  }

  /** Runs `body` as a write: `onStart` first, then the body; counted until it settles. */
  around<T>(body: () => Promise<T>): Promise<T> {
    this.generation++
    this.running++
    this.onStart()
    let running: Promise<T>
    try {
      running = body()
    } catch (error) {
      this.ended()
      return Promise.reject(error)
    }
    // A `then`, not an async function: this runs for every call of every non-idempotent tool.
    return running.then((value) => { this.ended(); return value }, (error: unknown) => { this.ended(); throw error })
  }

  private ended(): void {
    this.running--
    this.generation++
  }
}
