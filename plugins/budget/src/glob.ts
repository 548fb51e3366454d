/**
 * Tool-name globs for `cost`: `*` any run of characters, `?` one, `[abc]` / `[!abc]` / `[a-z]`
 * a class, `{a,b}` alternatives (not nested), `\` escapes the next character; everything
 * else matches itself. A glob matches the whole name. A malformed glob throws `GlobError` when
 * it is compiled (at load); a compiled one is a regular expression with no nested quantifier,
 * so a test never backtracks badly (tool names are short anyway).
 */

/** A glob that cannot be compiled; the message says what is wrong with it. */
export class GlobError extends Error {
  override readonly name = 'GlobError'
}

/** Compiles `glob` to a test of a whole tool name. Throws `GlobError` for a malformed one. */
export function compileGlob(glob: string): (name: string) => boolean {
  let source = ''
  let inBraces = false
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    switch (c) {
      case '*': source += '.*'; break
      case '?': source += '.'; break
      case '\\':
        if (i + 1 >= glob.length) throw new GlobError(`"${glob}" ends in a lone "\\" (escape a character after it, or write "\\\\")`)
        source += escape(glob[++i]!)
        break
      case '[': {
        const end = glob.indexOf(']', i + 2)
        if (end === -1) throw new GlobError(`"${glob}" has a "[" at ${i + 1} that is never closed with "]"`)
        let body = glob.slice(i + 1, end)
        const negated = body.startsWith('!')
        if (negated) body = body.slice(1)
        if (body === '') throw new GlobError(`"${glob}" has an empty class at ${i + 1}`)
        source += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`
        i = end
        break
      }
      case '{':
        if (inBraces) throw new GlobError(`"${glob}" nests "{" at ${i + 1}; alternatives cannot nest`)
        inBraces = true
        source += '(?:'
        break
      case '}':
        if (!inBraces) throw new GlobError(`"${glob}" has a "}" at ${i + 1} without its "{"`)
        inBraces = false
        source += ')'
        break
      case ',':
        source += inBraces ? '|' : ','
        break
      default:
        source += escape(c)
    }
  }
  if (inBraces) throw new GlobError(`"${glob}" has a "{" that is never closed with "}"`)
  let pattern: RegExp
  try {
    pattern = new RegExp(`^(?:${source})$`, 'su')
  } catch (error) {
    throw new GlobError(`"${glob}" cannot be compiled (${(error as Error).message})`)
  }
  return (name) => pattern.test(name)
}

function escape(c: string): string {
  // Only the characters that have a meaning in a pattern: in unicode mode escaping any other is an error.
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
