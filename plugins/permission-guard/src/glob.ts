/**
 * Text globs for tool names and argument values. A glob matches the WHOLE text. `*` is any run
 * of characters, slashes and newlines included, so `rm *` also covers `rm -rf /a/../b`: a
 * deny rule can never be dodged by a `/`, a `..` segment or a line break. `?` is one
 * character, `[a-z]` / `[!a-z]` a class, `{a,b}` alternatives (nestable), `\` escapes.
 * A malformed glob is a `GlobError` when it is compiled, which happens once, at load.
 */

/** A glob that cannot be compiled; the message says what is wrong with it. */
export class GlobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'GlobError'
  }
}

const SPECIAL = /[.*+?^${}()|[\]\\/]/g
const escape = (text: string) => text.replace(SPECIAL, '\\$&')
/** One literal character inside a RegExp class (the `u` flag allows only these escapes there). */
const classChar = (c: string) => (/[\\\]\[^-]/.test(c) ? `\\${c}` : c)

/** Compiles a glob to an anchored RegExp. Throws `GlobError` for a malformed glob. */
export function compileGlob(glob: string): RegExp {
  const source = new GlobParser(glob).parse()
  try {
    return new RegExp(`^${source}$`, 'u')
  } catch (error) {
    throw new GlobError(`is not a valid glob: ${(error as Error).message}`)
  }
}

class GlobParser {
  private i = 0
  constructor(private readonly glob: string) {}

  parse(): string {
    return this.sequence(0)
  }

  /** Reads up to the end, or (inside braces) up to the next `,` or `}`. */
  private sequence(depth: number): string {
    const { glob } = this
    let out = ''
    while (this.i < glob.length) {
      const c = glob[this.i]
      if (depth > 0 && (c === ',' || c === '}')) return out
      this.i++
      switch (c) {
        case '*':
          while (glob[this.i] === '*') this.i++
          out += '[\\s\\S]*'
          break
        case '?':
          out += '[\\s\\S]'
          break
        case '\\':
          if (this.i >= glob.length) throw new GlobError('ends with a lone "\\" (escape it as "\\\\")')
          out += escape(glob[this.i++])
          break
        case '[':
          out += this.charClass()
          break
        case '{':
          out += this.alternatives(depth + 1)
          break
        default:
          out += escape(c)
      }
    }
    return out
  }

  private alternatives(depth: number): string {
    const options = [this.sequence(depth)]
    while (this.glob[this.i] === ',') {
      this.i++
      options.push(this.sequence(depth))
    }
    if (this.glob[this.i] !== '}') throw new GlobError('has a "{" without its closing "}" (escape a literal one as "\\{")')
    this.i++
    return `(?:${options.join('|')})`
  }

  /** After `[`: `[!...]` / `[^...]` negate; a `]` right after the opening is literal. */
  private charClass(): string {
    const { glob } = this
    let out = ''
    if (glob[this.i] === '!' || glob[this.i] === '^') {
      out += '^'
      this.i++
    }
    let first = true
    while (this.i < glob.length) {
      const c = glob[this.i++]
      if (c === ']' && !first) return `[${out}]`
      first = false
      if (c === '\\') {
        if (this.i >= glob.length) break
        out += classChar(glob[this.i++])
      } else {
        out += c === '-' ? '-' : classChar(c)
      }
    }
    throw new GlobError('has a "[" without its closing "]" (escape a literal one as "\\[")')
  }
}
