/**
 * Text globs for tool names and argument values. A glob matches the WHOLE text. `*` is any run
 * of characters, slashes and newlines included, so `rm *` also covers `rm -rf /a/../b`: a
 * deny rule can never be dodged by a `/`, a `..` segment or a line break. `?` is one
 * character, `[a-z]` / `[!a-z]` a class, `{a,b}` alternatives (nestable), `\` escapes.
 * Characters are Unicode code points (`?` matches one emoji). A malformed glob is a
 * `GlobError` when it is compiled, which happens once, at load.
 *
 * Matching never backtracks: the glob is compiled to a small automaton (one state per
 * character, `*`, class or brace of the glob) whose set of live states is carried along the
 * text, so a test costs at most (code points of the text + 1) × states steps, whatever the
 * glob and the text (`*a*b*c*` against 100 KB of `a`s included).
 */

/** A glob that cannot be compiled; the message says what is wrong with it. */
export class GlobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'GlobError'
  }
}

/** A compiled glob. */
export interface Glob {
  /** The glob as written. */
  readonly source: string
  /** How many states its automaton has (a test takes at most (code points + 1) × size steps). */
  readonly size: number
  /** Whether the glob matches the whole of `text`. */
  test(text: string): boolean
  /** `test`, and how many steps (state visits) it took. */
  run(text: string): GlobRun
}

/** The outcome of one test, with the work it took. */
export interface GlobRun {
  matched: boolean
  steps: number
}

/** Compiles a glob. Throws `GlobError` for a malformed glob. */
export function compileGlob(glob: string): Glob {
  const program = emit(new GlobParser(glob).parse())
  const literal = literalOf(program)
  return literal === undefined ? new Automaton(glob, program) : new Literal(glob, literal)
}

// ---- Syntax: the parser turns the glob into a tree of these. ----

/** A part of the glob that consumes characters: one (a character, `?`, a class) or any run (`*`). */
type Atom =
  | { op: 'char', code: number }
  | { op: 'any' }
  | { op: 'class', negated: boolean, ranges: number[] }
  | { op: 'star' }

type Node = Atom | { op: 'alternatives', options: Node[][] }

/** One entry of a class body before ranges are formed: a character, or an unescaped `-`. */
type ClassItem = number | 'dash'

class GlobParser {
  private i = 0
  constructor(private readonly glob: string) {}

  parse(): Node[] {
    return this.sequence(0)
  }

  /** The next code point, consumed. */
  private take(): number {
    const code = this.glob.codePointAt(this.i)!
    this.i += code > 0xffff ? 2 : 1
    return code
  }

  /** Reads up to the end, or (inside braces) up to the next `,` or `}`. */
  private sequence(depth: number): Node[] {
    const { glob } = this
    const out: Node[] = []
    while (this.i < glob.length) {
      const c = glob[this.i]
      if (depth > 0 && (c === ',' || c === '}')) return out
      const code = this.take()
      switch (c) {
        case '*':
          while (glob[this.i] === '*') this.i++
          out.push({ op: 'star' })
          break
        case '?':
          out.push({ op: 'any' })
          break
        case '\\':
          if (this.i >= glob.length) throw new GlobError('ends with a lone "\\" (escape it as "\\\\")')
          out.push({ op: 'char', code: this.take() })
          break
        case '[':
          out.push(this.charClass())
          break
        case '{':
          out.push(this.alternatives(depth + 1))
          break
        default:
          out.push({ op: 'char', code })
      }
    }
    return out
  }

  private alternatives(depth: number): Node {
    const options = [this.sequence(depth)]
    while (this.glob[this.i] === ',') {
      this.i++
      options.push(this.sequence(depth))
    }
    if (this.glob[this.i] !== '}') throw new GlobError('has a "{" without its closing "}" (escape a literal one as "\\{")')
    this.i++
    return { op: 'alternatives', options }
  }

  /** After `[`: `[!...]` / `[^...]` negate; a `]` right after the opening is literal. */
  private charClass(): Node {
    const { glob } = this
    const negated = glob[this.i] === '!' || glob[this.i] === '^'
    if (negated) this.i++
    const items: ClassItem[] = []
    while (this.i < glob.length) {
      const c = glob[this.i]
      if (c === ']' && items.length > 0) {
        this.i++
        return { op: 'class', negated, ranges: rangesOf(items) }
      }
      if (c === '-') {
        this.i++
        items.push('dash')
        continue
      }
      if (c === '\\') this.i++
      if (this.i >= glob.length) break
      items.push(this.take())
    }
    throw new GlobError('has a "[" without its closing "]" (escape a literal one as "\\[")')
  }
}

/**
 * Pairs a class body into `[low, high]` code point ranges, left to right: `x-y` is a range,
 * a `-` with nothing to pair is itself (as in `[-a]`, `[a-]`); an escaped `\-` is never a range.
 */
function rangesOf(items: ClassItem[]): number[] {
  const ranges: number[] = []
  const codeOf = (item: ClassItem) => (item === 'dash' ? 0x2d : item)
  for (let i = 0; i < items.length; i++) {
    const low = codeOf(items[i])
    if (items[i + 1] === 'dash' && i + 2 < items.length) {
      const high = codeOf(items[i + 2])
      if (high < low) throw new GlobError(`is not a valid glob: the class range "${String.fromCodePoint(low)}-${String.fromCodePoint(high)}" is out of order`)
      ranges.push(low, high)
      i += 2
    } else {
      ranges.push(low, low)
    }
  }
  return ranges
}

// ---- The automaton: a flat program of states, run on a set of live states. ----

type State =
  | Atom
  | { op: 'split', targets: number[] }
  | { op: 'jump', to: number }
  | { op: 'match' }

/** The program of `nodes`: consuming states in order; braces become a split and a jump past each option. */
function emit(nodes: Node[]): State[] {
  const program: State[] = []
  const sequence = (list: Node[]) => {
    for (const node of list) {
      if (node.op === 'alternatives') alternatives(node.options)
      else program.push(node)
    }
  }
  const alternatives = (options: Node[][]) => {
    const split = { op: 'split' as const, targets: [] as number[] }
    const jumps: { op: 'jump', to: number }[] = []
    program.push(split)
    for (const option of options) {
      split.targets.push(program.length)
      sequence(option)
      const jump = { op: 'jump' as const, to: -1 }
      jumps.push(jump)
      program.push(jump)
    }
    for (const jump of jumps) jump.to = program.length
  }
  sequence(nodes)
  program.push({ op: 'match' })
  return program
}

/** The text a glob of plain characters only matches, or undefined. */
function literalOf(program: State[]): string | undefined {
  let text = ''
  for (const state of program) {
    if (state.op === 'match') return text
    if (state.op !== 'char') return undefined
    text += String.fromCodePoint(state.code)
  }
  return text
}

/** A glob with no special characters: string equality. */
class Literal implements Glob {
  readonly size = 1
  constructor(readonly source: string, private readonly text: string) {}

  test(text: string): boolean {
    return text === this.text
  }

  run(text: string): GlobRun {
    return { matched: this.test(text), steps: 1 }
  }
}

const CHAR = 0
const ANY = 1
const CLASS = 2
const STAR = 3
const SPLIT = 4
const JUMP = 5
const MATCH = 6
const OPS = { char: CHAR, any: ANY, class: CLASS, star: STAR, split: SPLIT, jump: JUMP, match: MATCH } as const

/**
 * The program run on typed arrays: `live` holds the states waiting for the next character,
 * `seen` stamps a state when it joins the list being built, so it joins once per step.
 * Tests are synchronous, so one set of buffers per glob serves every test.
 */
class Automaton implements Glob {
  readonly size: number
  private readonly ops: Uint8Array
  /** Per state: the character (char), the target (jump), or an index into `classes` / `splits`. */
  private readonly args: Int32Array
  private readonly classes: { negated: boolean, ranges: number[] }[] = []
  private readonly splits: number[][] = []
  private live: Int32Array
  private next: Int32Array
  private readonly pending: Int32Array
  private readonly seen: Int32Array
  private stamp = 0
  /** Steps taken by the last test. */
  private steps = 0

  constructor(readonly source: string, program: State[]) {
    this.size = program.length
    this.ops = new Uint8Array(program.map((state) => OPS[state.op]))
    this.args = new Int32Array(program.map((state) => this.argOf(state)))
    this.live = new Int32Array(this.size)
    this.next = new Int32Array(this.size)
    this.pending = new Int32Array(this.size + this.splits.reduce((sum, targets) => sum + targets.length, 0) + 1)
    this.seen = new Int32Array(this.size)
  }

  test(text: string): boolean {
    const { ops, args } = this
    let count = this.add(this.live, 0, 0, this.nextStamp())
    this.steps = 1
    for (let i = 0; i < text.length && count > 0; ) {
      const code = text.codePointAt(i)!
      i += code > 0xffff ? 2 : 1
      const live = this.live
      const stamp = this.nextStamp()
      let added = 0
      this.steps += count
      for (let k = 0; k < count && added >= 0; k++) {
        const pc = live[k]
        switch (ops[pc]) {
          case CHAR: if (args[pc] === code) added = this.add(this.next, added, pc + 1, stamp); break
          case ANY: added = this.add(this.next, added, pc + 1, stamp); break
          case CLASS: if (this.inClass(args[pc], code)) added = this.add(this.next, added, pc + 1, stamp); break
          case STAR: added = this.add(this.next, added, pc, stamp); break
        }
      }
      if (added < 0) return true
      this.live = this.next
      this.next = live
      count = added
    }
    if (count < 0) return true
    for (let k = 0; k < count; k++) if (ops[this.live[k]] === MATCH) return true
    return false
  }

  run(text: string): GlobRun {
    const matched = this.test(text)
    return { matched, steps: this.steps }
  }

  private argOf(state: State): number {
    switch (state.op) {
      case 'char': return state.code
      case 'jump': return state.to
      case 'class': return this.classes.push(state) - 1
      case 'split': return this.splits.push(state.targets) - 1
      default: return 0
    }
  }

  private nextStamp(): number {
    if (this.stamp === 0x7fffffff) {
      this.seen.fill(0)
      this.stamp = 0
    }
    return ++this.stamp
  }

  /**
   * Adds state `first`, and every state reachable from it without consuming a character, to
   * `list` (holding `count` states); returns the new count, or -1 when that reaches a `*`
   * followed by the end: whatever text is left then matches.
   */
  private add(list: Int32Array, count: number, first: number, stamp: number): number {
    const { ops, args, pending, seen } = this
    let top = 0
    pending[top++] = first
    while (top > 0) {
      const pc = pending[--top]
      if (seen[pc] === stamp) continue
      seen[pc] = stamp
      switch (ops[pc]) {
        case SPLIT: {
          const targets = this.splits[args[pc]]
          for (let t = targets.length - 1; t >= 0; t--) pending[top++] = targets[t]
          break
        }
        case JUMP:
          pending[top++] = args[pc]
          break
        case STAR:
          if (ops[pc + 1] === MATCH) return -1
          list[count++] = pc
          pending[top++] = pc + 1
          break
        default:
          list[count++] = pc
      }
    }
    return count
  }

  private inClass(index: number, code: number): boolean {
    const { negated, ranges } = this.classes[index]
    return inClass(ranges, code) !== negated
  }
}

function inClass(ranges: number[], code: number): boolean {
  for (let r = 0; r < ranges.length; r += 2) {
    if (code >= ranges[r] && code <= ranges[r + 1]) return true
  }
  return false
}
