/**
 * Spelling help for error messages: ` (did you mean "plugins"?)` when exactly one known word
 * is within two edits of what was typed. Pure; used wherever a key is rejected.
 */

/** The hint, or '' when no single known word is close. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const close = known.filter((candidate) => editDistance(typed.toLowerCase(), candidate.toLowerCase()) <= 2)
  return close.length === 1 ? ` (did you mean "${close[0]}"?)` : ''
}

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
