/**
 * Where a YAML syntax error is, for a person. The parser reports an unclosed quote or flow
 * collection (`{`, `[`) where it gave up — the next line, or the end of the file — and an
 * indentation error at the start of the line. The place reported here is where that quote or
 * bracket was opened, and the first character of the text that is out of place; every other
 * error stays where the parser put it.
 */
import type { Document, LineCounter, YAMLError } from 'yaml'
import { yaml } from './yaml-library.js'

/** A 1-based line and column. */
export interface SyntaxPlace {
  line: number
  column: number
}

/** The place of `error` in `text`, which `doc` and `lineCounter` were parsed from. */
export function syntaxErrorPlace(doc: Document, error: YAMLError, text: string, lineCounter: LineCounter): SyntaxPlace {
  let offset = openerOf(doc, error) ?? error.pos[0]
  while (text[offset] === ' ') offset++
  const { line, col } = lineCounter.linePos(offset)
  return { line, column: col }
}

/** The parser's message without its own "at line N, column M:" suffix and code snippet. */
export function syntaxErrorText(error: YAMLError): string {
  const [head = error.message] = error.message.split('\n')
  return head.replace(/ at line \d+, column \d+:?$/, '')
}

/**
 * Where the quote or flow collection that `error` says is unclosed begins: the innermost such
 * node that ends where the error is reported. Undefined for any other error.
 */
function openerOf(doc: Document, error: YAMLError): number | undefined {
  const quote = /^Missing closing (["'])quote/.exec(error.message)?.[1]
  const flow = /^Flow (map|sequence)\b.* end with a [}\]]/.exec(error.message)?.[1]
  if (quote === undefined && flow === undefined) return undefined
  const { isMap, isScalar, isSeq, visit } = yaml()
  const at = error.pos[0]
  let start: number | undefined
  visit(doc, (_key, node) => {
    const range = (node as { range?: [number, number, number] }).range
    if (!range || range[1] !== at) return
    const unclosed = quote !== undefined
      ? isScalar(node) && node.type === (quote === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE')
      : (flow === 'map' ? isMap(node) : isSeq(node)) && (node as { flow?: boolean }).flow === true
    if (unclosed && (start === undefined || range[0] > start)) start = range[0]
  })
  return start
}
