/**
 * Brace expansion, as bash does it to a command's words before any other expansion:
 * `git {push,} origin` runs `git push origin`, `timeout {5,rm} x` runs `timeout 5 rm x`,
 * `a{1..3}` is `a1 a2 a3`. Only unquoted characters count: a `{`, `}`, `,` or `..` that was
 * quoted or escaped is text, and a dynamic part (`$x`, `$(…)`) is one opaque piece carried into
 * every result, since bash expands it later. Bash's own rules for where an expression ends are
 * kept: its `}` is the first one at its level after a comma or `..` at that level
 * (`a{},}b` is `a}b ab`), a `{` that starts the word and is followed by `}` is text, and
 * an expression with no comma whose sequence does not read (`{1..x}`) stays as written while
 * the rest of the word is still expanded, and one whose only commas are quoted is a list of one
 * (`{..','}` is `..,`). Unquoted words that come out empty are dropped (`{push,}` gives one
 * word). Where bash reads the raw text and this the parts, a backslash inside quotes before a
 * comma (`{.."\\,"}`) may be read otherwise; either way the word keeps its `..`.
 */
import type { Part, Word } from './syntax.js'

/** Words one word may expand to before the reader gives up and reads it as unknown. */
export const MAX_BRACE_WORDS = 1024
/**
 * Beyond these the word is read as unknown: characters of a word with braces, unquoted `{` in
 * it (each may start a scan to the word's end), characters of all its expansions together.
 */
const MAX_WORD_CHARS = 8 * 1024
const MAX_OPEN_BRACES = 256
const MAX_BRACE_CHARS = 64 * 1024

/** One character of a word, or a piece that is not text (a dynamic part, or `''`, which makes a word count as given). */
type Piece = { char: string, quoted: boolean, escaped?: true } | { part: Part }

/** More words or text than the limits allow: the word is read as unknown. */
class TooMany extends Error {}

/**
 * `words` with every unquoted brace expression expanded; a word past the limits (more than
 * `MAX_BRACE_WORDS` words out, or too long to scan) becomes one word known only at run time.
 */
export function expandBraces(words: readonly Word[]): Word[] {
  if (!words.some(mayExpand)) return [...words]
  return words.flatMap((word) => {
    if (!mayExpand(word)) return [word]
    const pieces = piecesOf(word)
    try {
      if (pieces.length > MAX_WORD_CHARS || pieces.filter((piece) => isBare(piece, '{')).length > MAX_OPEN_BRACES) throw new TooMany()
      const budget = { chars: MAX_BRACE_CHARS }
      return expand(pieces, budget).filter((out) => out.length > 0).map(wordOf)
    } catch (error) {
      if (!(error instanceof TooMany)) throw error
      return [{ parts: [{ kind: 'dynamic', source: word.parts.map(sourceOf).join('') }] }]
    }
  })
}

const mayExpand = (word: Word) => word.parts.some((part) => part.kind === 'literal' && !part.quoted && part.text.includes('{'))

const sourceOf = (part: Part) => (part.kind === 'literal' ? part.text : part.source)

const isBare = (piece: Piece | undefined, char: string) => piece !== undefined && 'char' in piece && !piece.quoted && piece.char === char

function piecesOf(word: Word): Piece[] {
  return word.parts.flatMap((part): Piece[] => {
    if (part.kind === 'dynamic' || part.text === '') return [{ part }]
    return Array.from(part.text, (char): Piece => (part.escaped ? { char, quoted: true, escaped: true } : { char, quoted: part.quoted }))
  })
}

/** The words `pieces` expands to: what comes before its first expression, times its alternatives, times the rest expanded. */
function expand(pieces: Piece[], budget: { chars: number }): Piece[][] {
  const found = firstExpression(pieces)
  if (found === undefined) return [pieces]
  const { open, close } = found
  const amble = pieces.slice(open + 1, close)
  let middle: Piece[][]
  // Any comma not written `\,` makes it a list, even a quoted one (then of one item, braces gone: `{..','}` is `..,`).
  if (amble.some((piece) => 'char' in piece && piece.char === ',' && !piece.escaped)) {
    middle = splitAtCommas(amble).flatMap((alternative) => expand(alternative, budget))
  } else {
    const sequence = sequenceOf(amble)
    // Not a sequence: the braces and what they hold are text, the rest of the word still expands.
    if (sequence === undefined) return product([pieces.slice(0, close + 1)], expand(pieces.slice(close + 1), budget), budget)
    middle = sequence
  }
  return product(product([pieces.slice(0, open)], middle, budget), expand(pieces.slice(close + 1), budget), budget)
}

/** Every `a` followed by every `b`, in order; throws `TooMany` past `MAX_BRACE_WORDS` words or the budget's text. */
function product(firsts: Piece[][], seconds: Piece[][], budget: { chars: number }): Piece[][] {
  if (firsts.length * seconds.length > MAX_BRACE_WORDS) throw new TooMany()
  const out: Piece[][] = []
  for (const first of firsts) {
    for (const second of seconds) {
      budget.chars -= first.length + second.length
      if (budget.chars < 0) throw new TooMany()
      out.push([...first, ...second])
    }
  }
  return out
}

/**
 * The first brace expression, as bash finds it: an unquoted `{` (not one that starts the word
 * and is followed by `}`), then the first unquoted `}` at its level once a comma or a `..` (not
 * right before that `}`) has been seen at its level. A `{` with no such `}` is text.
 */
function firstExpression(pieces: Piece[]): { open: number, close: number } | undefined {
  for (let open = 0; open < pieces.length; open++) {
    if (!isBare(pieces[open], '{') || (open === 0 && isBare(pieces[1], '}'))) continue
    let level = 0
    let separated = false
    for (let i = open + 1; i < pieces.length; i++) {
      if (isBare(pieces[i], '{')) level++
      else if (isBare(pieces[i], '}')) {
        if (level > 0) level--
        else if (separated) return { open, close: i }
      } else if (level === 0 && isBare(pieces[i], ',')) separated = true
      else if (level === 0 && isBare(pieces[i], '.') && isBare(pieces[i + 1], '.') && !isBare(pieces[i + 2], '}')) separated = true
    }
  }
  return undefined
}

/** The pieces between a comma-separated expression's braces, cut at its own (unquoted, unnested) commas. */
function splitAtCommas(amble: Piece[]): Piece[][] {
  const out: Piece[][] = []
  let level = 0
  let start = 0
  for (let i = 0; i < amble.length; i++) {
    if (isBare(amble[i], '{')) level++
    else if (isBare(amble[i], '}') && level > 0) level--
    else if (level === 0 && isBare(amble[i], ',')) {
      out.push(amble.slice(start, i))
      start = i + 1
    }
  }
  out.push(amble.slice(start))
  return out
}

const NUMBERS = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/
const LETTERS = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/

/**
 * `1..5`, `a..e`, `01..10..3` (unquoted text only) as its words, bash's way: the step's sign
 * is ignored, a step of 0 counts as 1, a number written with a leading zero pads them all.
 * Undefined when the text is not a sequence; throws `TooMany` past `MAX_BRACE_WORDS` words.
 */
function sequenceOf(inside: Piece[]): Piece[][] | undefined {
  if (!inside.every((piece) => 'char' in piece && !piece.quoted)) return undefined
  const text = inside.map((piece) => ('char' in piece ? piece.char : '')).join('')
  const numbers = NUMBERS.exec(text)
  const match = numbers ?? LETTERS.exec(text)
  if (!match) return undefined
  const from = numbers ? Number(match[1]) : match[1]!.charCodeAt(0)
  const to = numbers ? Number(match[2]) : match[2]!.charCodeAt(0)
  const step = Math.abs(Number(match[3] ?? 1)) || 1
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || !Number.isSafeInteger(step) || Math.floor(Math.abs(to - from) / step) + 1 > MAX_BRACE_WORDS) {
    throw new TooMany()
  }
  const width = numbers && [match[1]!, match[2]!].some((end) => /^[-+]?0\d/.test(end)) ? Math.max(match[1]!.length, match[2]!.length) : 0
  const out: Piece[][] = []
  for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step) {
    const word = numbers ? padded(value, width) : String.fromCharCode(value)
    out.push(Array.from(word, (char) => ({ char, quoted: false })))
  }
  return out
}

/** `value` written at least `width` characters wide, zeros after any minus sign. */
function padded(value: number, width: number): string {
  const digits = String(Math.abs(value))
  const sign = value < 0 ? '-' : ''
  return sign + digits.padStart(width - sign.length, '0')
}

/** The word `pieces` spell: runs of characters quoted alike become one literal part. */
function wordOf(pieces: Piece[]): Word {
  const parts: Part[] = []
  for (const piece of pieces) {
    if (!('char' in piece)) {
      parts.push(piece.part)
      continue
    }
    const last = parts.at(-1)
    if (last?.kind === 'literal' && last.quoted === piece.quoted) last.text += piece.char
    else parts.push({ kind: 'literal', text: piece.char, quoted: piece.quoted })
  }
  return { parts }
}
