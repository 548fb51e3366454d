/**
 * Reading Markdown the way a link checker needs it: the text outside fenced code blocks, its
 * relative links (`[text](path#anchor)`), the file names it mentions in prose (`DESIGN.md`),
 * and the anchors its headings get on GitHub (lower case, punctuation dropped, spaces to `-`,
 * `-1`, `-2`... for repeats).
 */

/** The text outside ``` and ~~~ fences, line for line (fenced lines become empty). */
export function prose(markdown: string): string[] {
  let fence: string | undefined
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1]
    if (marker && (fence === undefined || fence === marker)) {
      fence = fence === undefined ? marker : undefined
      return ''
    }
    return fence === undefined ? line : ''
  })
}

/** A link or a mention found on a line (1-based). */
export interface Reference {
  line: number
  target: string
}

/** `[text](target)` and `![alt](target)` links that are not URLs (no scheme). */
export function relativeLinks(lines: readonly string[]): Reference[] {
  return lines.flatMap((text, i) => [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => ({ line: i + 1, target: m[1]! }))
    .filter((ref) => !/^[a-z][a-z0-9+.-]*:/i.test(ref.target)))
}

/** Names of Markdown files mentioned in prose (`see DESIGN.md`), links and URLs left out. */
export function mentionedFiles(lines: readonly string[]): Reference[] {
  return lines.flatMap((text, i) => {
    const bare = text.replace(/!?\[[^\]]*\]\([^)]*\)/g, '').replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '')
    return [...bare.matchAll(/(?<![\w/.-])([\w./-]*[\w-]\.md)\b/g)].map((m) => ({ line: i + 1, target: m[1]! }))
  })
}

/** The anchors GitHub gives the headings of `markdown`. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    out.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return out
}
