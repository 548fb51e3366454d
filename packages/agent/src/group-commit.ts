/**
 * When a grouping store takes its next batch. A store that writes and syncs in groups (every
 * entry queued while a write is in flight goes out in the next write, under one sync) takes
 * that batch only once the microtask queue has drained: the appends that the last
 * acknowledgement set going (the next calls of a batch starting, their results reaching the
 * commit cursor) run as promise reactions, and waiting for them puts them in the same write
 * instead of one write each. It costs one turn of the event loop per write, against a sync
 * that takes milliseconds; an entry waits for no timer.
 */

/** Resolves after the promise reactions queued now, and those they queue, have run. */
export function afterMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
