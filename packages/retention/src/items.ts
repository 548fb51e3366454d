/**
 * Head, tail and head+tail of an array by item count. Every function returns new arrays (the
 * input is never changed) and exactly how many items it left out, so that kept + omitted =
 * total. The kept items are always a prefix and a suffix of the input, in their order.
 */
import { checkBudget, checkRatio, headShare } from './budget.js'

/** The items kept from one end of an array. */
export interface ItemSlice<T> {
  items: T[]
  /** How many items were left out: `total - items.length`. */
  omitted: number
  total: number
}

/** The first and last items of an array with the middle left out. */
export interface HeadTailItems<T> {
  /** A prefix of the input. The whole input when it fits. */
  head: T[]
  /** A suffix of the input, not overlapping `head`. Empty when the whole input fits. */
  tail: T[]
  /** How many items in the middle were left out: `total - head.length - tail.length`. */
  omitted: number
  total: number
}

/** The first `maxItems` items. Pure. Throws a `RangeError` on a bad count. */
export function headItems<T>(items: readonly T[], maxItems: number): ItemSlice<T> {
  checkBudget('maxItems', maxItems)
  const kept = items.slice(0, Math.min(items.length, maxItems))
  return { items: kept, omitted: items.length - kept.length, total: items.length }
}

/** The last `maxItems` items. Pure. Throws a `RangeError` on a bad count. */
export function tailItems<T>(items: readonly T[], maxItems: number): ItemSlice<T> {
  checkBudget('maxItems', maxItems)
  const count = Math.min(items.length, maxItems)
  const kept = items.slice(items.length - count)
  return { items: kept, omitted: items.length - kept.length, total: items.length }
}

/**
 * At most `maxItems` items: the first `floor(maxItems * headRatio)` (default ratio 0.5) and
 * the last ones that make up the rest. Pure. Throws a `RangeError` on a bad count or ratio.
 */
export function headTailItems<T>(items: readonly T[], maxItems: number, options: { headRatio?: number } = {}): HeadTailItems<T> {
  checkBudget('maxItems', maxItems)
  const ratio = options.headRatio ?? 0.5
  checkRatio('headRatio', ratio)
  if (items.length <= maxItems) return { head: items.slice(), tail: [], omitted: 0, total: items.length }
  const headCount = headShare(maxItems, ratio)
  const tailCount = maxItems - headCount
  return {
    head: items.slice(0, headCount),
    tail: items.slice(items.length - tailCount),
    omitted: items.length - maxItems,
    total: items.length,
  }
}
