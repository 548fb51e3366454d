/**
 * Tracks the calls that may change the world (every call of a tool not marked `idempotent`,
 * unless configured as `pure`). Guarantees: `onStart` runs before such a call's inner layers
 * do, and a run that overlapped such a call in any way is never reported `quiet`, so a result
 * that may predate a write is never stored. A write whose result was returned while its body
 * may still run (the kernel's `bodyMayStillRun`) is not over: it invalidates again and stays counted as running
 * for `holdMs` more (one unref'd timer, cleared by `dispose`). One per plugin instance.
 */
import { bodyMayStillRun, MAX_TIMER_MS } from '@rein/kernel'

/** Counts writes: the generation moves when one starts and again when it ends. */
export class Writes {
  private generation = 0
  private running = 0
  private readonly holds = new Set<ReturnType<typeof setTimeout>>()

  /**
   * `onStart` runs synchronously as each write begins (the cache clears itself there), and
   * again when a write comes back abandoned. `holdMs`: how long an abandoned write stays
   * counted as running after its result (the cache's `ttlMs`).
   */
  constructor(private readonly onStart: () => void, private readonly holdMs = 0) {}

  /** Taken when a run begins; pass it to `quietSince` when the run ends. */
  mark(): number {
    return this.generation
  }

  /** True when no write started or ended since `mark` and none is running now. */
  quietSince(mark: number): boolean {
    return this.running === 0 && this.generation === mark
  }

  /**
   * Runs `body` as a write: `onStart` first, then the body; counted until it settles, or,
   * when its result is abandoned, until `holdMs` after that.
   */
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
    // This runs for every call of every non-idempotent tool. It hands back the very promise
    // `body()` gave (the kernel's pass-through: no promise and no check of its own), and counts
    // the write as over in one reaction with no closure per call, registered before the caller
    // can react: whoever sees the result sees the write already counted as over (or abandoned).
    running.then(this.settled, this.failed)
    return running
  }

  /** A write's body answered: over, unless its result says the body may still run. */
  private readonly settled = (value: unknown) => {
    if (bodyMayStillRun(value)) this.abandoned()
    else this.ended()
  }

  /** A write's body rejected: over (the caller handles the rejection). */
  private readonly failed = () => {
    this.ended()
  }

  /** Clears the hold timers. The writes they hold stay counted: nothing is stored after this. */
  dispose(): void {
    for (const timer of this.holds) clearTimeout(timer)
    this.holds.clear()
  }

  /** The body may still be writing: invalidate what was read meanwhile, and hold the count. */
  private abandoned(): void {
    this.generation++
    this.onStart()
    this.hold(this.holdMs)
  }

  private hold(ms: number): void {
    if (ms <= 0) {
      this.ended()
      return
    }
    const step = Math.min(ms, MAX_TIMER_MS)
    const timer = setTimeout(() => {
      this.holds.delete(timer)
      this.hold(ms - step)
    }, step)
    timer.unref?.()
    this.holds.add(timer)
  }

  private ended(): void {
    this.running--
    this.generation++
  }
}
