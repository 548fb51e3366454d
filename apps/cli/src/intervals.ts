/**
 * Which calls ran at the same time. Calls are taken in start order; a call joins the current
 * group when it starts before every call of the group has ended, else it opens a new group.
 * So a barrier (a call that waited for all before it, and held back all after it) is always
 * a group of its own. Pure; used by the live summary and by the trace layout.
 */

/** Anything with a start and an end on one clock. */
export interface Interval {
  start: number
  end: number
}

/** The groups of overlapping intervals, in start order; within a group, in start order too. */
export function concurrentGroups<T extends Interval>(items: readonly T[]): T[][] {
  const sorted = items.map((item, order) => ({ item, order }))
    .sort((a, b) => a.item.start - b.item.start || a.order - b.order)
  const groups: T[][] = []
  let groupEnd = -Infinity
  for (const { item } of sorted) {
    const end = Math.max(item.start, item.end)
    if (groups.length === 0 || item.start >= groupEnd) {
      groups.push([item])
      groupEnd = end
    } else {
      groups.at(-1)!.push(item)
      groupEnd = Math.max(groupEnd, end)
    }
  }
  return groups
}

/** From the first start to the last end (0 for none). */
export function span(items: readonly Interval[]): number {
  if (items.length === 0) return 0
  return Math.max(...items.map((i) => i.end)) - Math.min(...items.map((i) => i.start))
}
