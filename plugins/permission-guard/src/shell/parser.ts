/**
 * The bash parser: mvdan-sh (the parser behind shfmt, compiled to JavaScript) read into simple
 * commands. It is strict: a syntax error is an error, never a guess, so a reading either follows
 * bash or fails. It is loaded on first use, not at import, and the two process-wide settings
 * its runtime changes while loading (`Error.stackTraceLimit`, `globalThis.require`) are put back.
 * The one loaded parser is shared by every policy in the process; it keeps nothing between calls.
 */
import { createRequire } from 'node:module'
import { ansiC, doubleQuoted, unquotedParts } from './escapes.js'
import { staticText, type ParseResult, type Part, type ShellParser, type SimpleCommand, type Word } from './syntax.js'

/** The few mvdan-sh syntax-tree shapes this module reads (see mvdan.cc/sh/v3/syntax). */
interface Position { Offset(): number }
interface SyntaxNode { Pos(): Position, End(): Position, [field: string]: any }
interface Parser { Parse(source: string, name: string): SyntaxNode }
interface Syntax {
  NewParser(): Parser
  NodeType(node: SyntaxNode): string
  Walk(node: SyntaxNode, visit: (node: SyntaxNode | null) => boolean): void
}

let loaded: { sh: Syntax, parser: Parser } | undefined

function load(): { sh: Syntax, parser: Parser } {
  if (loaded) return loaded
  const limit = Error.stackTraceLimit
  const globalRequire = Object.getOwnPropertyDescriptor(globalThis, 'require')
  try {
    const sh = (createRequire(import.meta.url)('mvdan-sh') as { syntax: Syntax }).syntax
    loaded = { sh, parser: sh.NewParser() }
  } finally {
    Error.stackTraceLimit = limit
    if (globalRequire) Object.defineProperty(globalThis, 'require', globalRequire)
    else delete (globalThis as { require?: unknown }).require
  }
  return loaded
}

/** Parses bash. Loads the parser the first time it is called (~150 ms); never throws. */
export const parseBash: ShellParser = (source) => {
  try {
    const { sh, parser } = load()
    return read(sh, parser.Parse(source, ''), source)
  } catch (error) {
    return { ok: false, reason: messageOf(error) }
  }
}

function messageOf(error: unknown): string {
  if (error instanceof RangeError) return 'the command is nested too deeply to read'
  const go = error as { Error?: () => string } | null
  return typeof go?.Error === 'function' ? go.Error() : error instanceof Error ? error.message : String(error)
}

/** Every simple command of the tree, in source order (an outer command before what its words run). */
function read(sh: Syntax, file: SyntaxNode, source: string): ParseResult {
  const bytes = Buffer.from(source, 'utf8')
  const sourceOf = (node: SyntaxNode) => bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8')
  const type = (node: SyntaxNode) => sh.NodeType(node)

  const part = (node: SyntaxNode): Part[] => {
    switch (type(node)) {
      case 'Lit': return unquotedParts(node.Value)
      case 'SglQuoted': return [{ kind: 'literal', text: node.Dollar ? ansiC(node.Value) : node.Value, quoted: true }]
      case 'DblQuoted': return (node.Parts as SyntaxNode[]).flatMap((inner) => (type(inner) === 'Lit'
        ? [{ kind: 'literal', text: doubleQuoted(inner.Value), quoted: true } as const]
        : part(inner)))
      default: return [{ kind: 'dynamic', source: sourceOf(node) }]
    }
  }
  const word = (node: SyntaxNode): Word => ({ parts: (node.Parts as SyntaxNode[]).flatMap(part) })

  /** The here-document or here-string a statement feeds to standard input, if any. */
  const inputOf = (stmt: SyntaxNode): Word | undefined => {
    let input: Word | undefined
    for (const redirect of (stmt.Redirs ?? []) as SyntaxNode[]) {
      if (redirect.N && redirect.N.Value !== '0') continue
      if (redirect.Hdoc) input = heredoc(redirect)
      else if (bytes.subarray(redirect.OpPos.Offset(), redirect.OpPos.Offset() + 3).toString() === '<<<') input = word(redirect.Word)
    }
    return input
  }
  /** A here-document body: literal when its delimiter is quoted, else expanded like "…". */
  const heredoc = (redirect: SyntaxNode): Word => {
    const delimiter = redirect.Word.Parts as SyntaxNode[]
    const quoted = delimiter.some((p) => type(p) !== 'Lit' || String(p.Value).includes('\\'))
    return {
      parts: (redirect.Hdoc.Parts as SyntaxNode[]).flatMap((p): Part[] => (type(p) === 'Lit'
        ? [{ kind: 'literal', text: quoted ? p.Value : doubleQuoted(p.Value), quoted: true }]
        : [{ kind: 'dynamic', source: sourceOf(p) }])),
    }
  }
  /** `export A=1 -x b` as words: each assignment is one word. */
  const declaration = (clause: SyntaxNode): Word[] => [
    { parts: [{ kind: 'literal', text: clause.Variant.Value, quoted: false }] },
    ...(clause.Args as SyntaxNode[]).map((assign): Word => {
      if (assign.Naked) return assign.Value ? word(assign.Value) : { parts: [{ kind: 'literal', text: assign.Name.Value, quoted: false }] }
      if (assign.Index || assign.Array || !assign.Value) return { parts: [{ kind: 'dynamic', source: sourceOf(assign) }] }
      return { parts: [{ kind: 'literal', text: `${assign.Name.Value}${assign.Append ? '+=' : '='}`, quoted: false }, ...word(assign.Value).parts] }
    }),
  ]

  /** Whether a redirection writes to a file: `>`, `>>`, `>|`, `&>`, `<>`, or `>&` to a name. */
  const writesFile = (redirect: SyntaxNode): boolean => {
    const at = redirect.OpPos.Offset()
    const op = /^(&>>?|>>|>\||>&|<>|>|<&|<<<|<<-|<<|<)/.exec(bytes.subarray(at, at + 3).toString('latin1'))?.[1] ?? '>'
    if (op.startsWith('<') && op !== '<>') return false
    const target = redirect.Word ? staticText(word(redirect.Word)) : undefined
    if (target === '/dev/null' || target === '/dev/stdout' || target === '/dev/stderr') return false
    return !(op === '>&' && target !== undefined && /^(\d+-?|-)$/.test(target))
  }

  const commands: SimpleCommand[] = []
  let writes = false
  sh.Walk(file, (node) => {
    if (!node) return true
    if (type(node) === 'Redirect') {
      writes ||= writesFile(node)
      return true
    }
    if (type(node) !== 'Stmt' || !node.Cmd) return true
    const command = node.Cmd as SyntaxNode
    switch (type(command)) {
      case 'CallExpr':
        if (command.Args.length > 0) commands.push({ words: (command.Args as SyntaxNode[]).map(word), input: inputOf(node) })
        break
      case 'DeclClause':
        commands.push({ words: declaration(command) })
        break
    }
    return true
  })
  return { ok: true, commands, writes }
}
