/**
 * A child signal: it aborts (with the parent's reason) when its parent does, and can be
 * released so that the parent keeps no listener for it. One per attempt, so that whatever an
 * attempt left listening on its signal never hears about the next attempt.
 */

export interface ChildSignal {
  readonly signal: AbortSignal
  /** Removes the listener on the parent. Idempotent. */
  release(): void
}

/** A fresh signal that follows `parent`. */
export function childSignal(parent: AbortSignal): ChildSignal {
  const controller = new AbortController()
  if (parent.aborted) {
    controller.abort(parent.reason)
    return { signal: controller.signal, release: () => {} }
  }
  const follow = () => controller.abort(parent.reason)
  parent.addEventListener('abort', follow, { once: true })
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', follow) }
}
