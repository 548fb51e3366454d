/**
 * The result codes `read_spilled` can fail with, in one place. A store signals an unknown
 * locator by throwing a `SpillNotFoundError` (code `SPILL_NOT_FOUND`); the kernel turns the
 * thrown code into the failed result's `error.info.code`.
 */

/** No spilled output has this locator (never issued, deleted, or from another store). */
export const SPILL_NOT_FOUND = 'SPILL_NOT_FOUND'
/** The output was saved, then removed to keep the store within `maxStoreBytes` (oldest first). */
export const SPILL_EXPIRED = 'SPILL_EXPIRED'
/** `store: 'external'` is configured but no plugin provides the `spillStore` service. */
export const SPILL_STORE_UNAVAILABLE = 'SPILL_STORE_UNAVAILABLE'

/** Every code this package produces. */
export const SpillCodes = { SPILL_NOT_FOUND, SPILL_EXPIRED, SPILL_STORE_UNAVAILABLE } as const
