/**
 * The innermost answers of the decision onions (`HOOKS[...].innermost`), each as one frozen
 * decision and one promise of it made once: a chain whose handlers all hand `next()` on
 * answers that very promise, which the pipeline and `knownDecision` recognise without waiting.
 */
import { HOOKS } from './hooks.js'
import type { PostToolDecision, PreToolDecision } from './types.js'

/** Pre-execute's default: allow. */
export const ALLOW: PreToolDecision = Object.freeze({ kind: HOOKS['tools/pre-execute'].innermost })
/** Post-execute's default: accept, unchanged. */
export const ACCEPT: PostToolDecision = Object.freeze({ kind: HOOKS['tools/post-execute'].innermost })
/** The same, already resolved: a chain with no handler costs no new promise per call. */
export const ALLOWED = Promise.resolve(ALLOW)
export const ACCEPTED = Promise.resolve(ACCEPT)

/**
 * The decision a handler's `next()` answered, when the kernel knows it without waiting: the
 * innermost default (allow, or accept unchanged), which `next()` answers once no handler
 * inside the caller has anything to say. Undefined for any other promise: wait for it.
 *
 * A handler that would act on the inner decision can decide at once with it, and return the
 * promise `next()` gave it when it changes nothing: the stage then stays synchronous and costs
 * no promise (spill does this for every result it leaves inline).
 */
export function knownDecision(pending: Promise<PreToolDecision>): PreToolDecision | undefined
export function knownDecision(pending: Promise<PostToolDecision>): PostToolDecision | undefined
export function knownDecision(pending: unknown): PreToolDecision | PostToolDecision | undefined {
  if (pending === ALLOWED) return ALLOW
  if (pending === ACCEPTED) return ACCEPT
  return undefined
}
