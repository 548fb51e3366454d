/**
 * A hang detector for the fault-injection property that counts the time this process could
 * run, not wall time: it resolves `'hang'` after `ticks` turns of a `tickMs` timer, each armed
 * when the one before it fired. On an idle machine that is `ticks × tickMs`. On one so loaded
 * that this process is starved (under two busy loops on a shared two-core machine, timers here
 * fired up to 8 s late), each turn waits as long as the starvation lasts, so a batch that is
 * only slowed down is not taken for a hang, while a run that never settles still is. Work that
 * blocks the event loop itself delays it too, but that would stop any timer, the runner's own included.
 */
export interface Watchdog {
  /** Resolves `'hang'` once the ticks have run out. */
  readonly fired: Promise<'hang'>
  /** Stops counting; `fired` then never resolves. */
  stop(): void
}

/** Starts counting `ticks` turns of `tickMs`. */
export function watchdog(ticks: number, tickMs: number): Watchdog {
  let timer: ReturnType<typeof setTimeout> | undefined
  let left = ticks
  const fired = new Promise<'hang'>((resolve) => {
    const tick = () => {
      if (--left <= 0) resolve('hang')
      else timer = setTimeout(tick, tickMs)
    }
    timer = setTimeout(tick, tickMs)
  })
  return { fired, stop: () => clearTimeout(timer) }
}
