/**
 * The longest delay a Node timer honours: 2^31 − 1 ms (about 24.8 days). A longer one fires
 * after 1 ms, so every config that sets a timer (deadlines, backoff, holds, idle windows) is
 * bounded by it.
 */
export const MAX_TIMER_MS = 2_147_483_647
