/**
 * Checks the budgets and ratios every retention function takes. A budget is a count (bytes
 * or items): a non-negative integer, or `Infinity` for "keep everything". A bad budget is a
 * programming error, so it throws a `RangeError` naming the parameter and the value.
 */

/** Throws unless `value` is a non-negative integer or `Infinity`. */
export function checkBudget(name: string, value: number): void {
  if (value === Infinity) return
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer or Infinity, got ${String(value)}`)
  }
}

/** Throws unless `value` is a number from 0 to 1. */
export function checkRatio(name: string, value: number): void {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new RangeError(`${name} must be a number from 0 to 1, got ${String(value)}`)
  }
}

/** The head's share of `budget`, rounded down (the tail gets the rest). */
export function headShare(budget: number, ratio: number): number {
  return budget === Infinity ? Infinity : Math.floor(budget * ratio)
}
