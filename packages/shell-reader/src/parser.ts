/**
 * The bash parser: mvdan-sh (the parser behind shfmt, compiled to JavaScript) read into simple
 * commands. It is strict: a syntax error is an error, never a guess, so a reading either follows
 * bash or fails. It is loaded on first use, not at import, and the two process-wide settings
 * its runtime changes while loading (`Error.stackTraceLimit`, `globalThis.require`) are put back.
 * The one loaded parser is shared by every policy in the process; it keeps nothing between calls.
 */
import { createRequire } from 'node:module'
import { ansiC, doubleQuoted, unquotedParts } from './escapes.js'
import { expandBraces } from './braces.js'
import { isCodeVariable } from './evaluation.js'
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

/**
 * How many syntax nodes a line may have before it is not read. The parser's tree walk costs
 * about 25 µs a node, and the policy reads synchronously: 4000 nodes (about 650 plain commands)
 * bound a reading near 0.1 s, where a 128 KiB line of short commands took seconds. A line over it
 * is `{ ok: false }`: every deny and ask rule matches it, no allow rule does.
 */
export const MAX_NODES = 4000

/**
 * A comment that ends in a backslash: bash ends the comment at the newline, but the parser
 * takes `\<newline>` as a line continuation inside it, reading `ls #\<newline>rm x` as one
 * command `ls rm x`. A `#` starts a comment only at the start of a word.
 */
const COMMENT_CONTINUED = /(^|[\s;&|()])#[^\n]*\\\r?\n/

/** Parses bash. Loads the parser the first time it is called (~150 ms); never throws. */
export const parseBash: ShellParser = (source) => {
  if (COMMENT_CONTINUED.test(source)) return { ok: false, reason: 'a comment ends in a backslash, which bash and this reader would read differently' }
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

/** One parsed script: its tree's node types and the source text of any node. */
interface Tree {
  sh: Syntax
  bytes: Buffer
  type(node: SyntaxNode): string
  sourceOf(node: SyntaxNode): string
}

/** What here-documents and here-strings feed a statement: standard input, another descriptor. */
interface Feed {
  input?: Word
  other: boolean
}

/** A compound statement's here-documents, which the commands inside it read. */
interface FedRange {
  start: number
  end: number
  feed: Feed
}

/** Every simple command of the tree, in source order (an outer command before what its words run). */
function read(sh: Syntax, file: SyntaxNode, source: string): ParseResult {
  const bytes = Buffer.from(source, 'utf8')
  const tree: Tree = {
    sh,
    bytes,
    type: (node) => sh.NodeType(node),
    sourceOf: (node) => bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8'),
  }
  const commands: SimpleCommand[] = []
  const fed: FedRange[] = []
  // The statements `time` runs: bash takes one `--` after `time` (or `time -p`) as its own.
  const timed = new Set<number>()
  let writes = false
  let nodes = 0
  sh.Walk(file, (node) => {
    if (!node || ++nodes > MAX_NODES) return false
    switch (tree.type(node)) {
      case 'Redirect':
        writes ||= writesFile(tree, node)
        break
      case 'TimeClause':
        if (node.Stmt) timed.add(node.Stmt.Pos().Offset())
        break
      case 'Stmt':
        statement(tree, node, { commands, fed, timed })
        break
      case 'WordIter':
        if (/[A-Z]/.test(node.Name.Value)) commands.push(loopVariable(tree, node))
        break
      case 'CoprocClause':
        if (node.Name) commands.push(coprocArray(tree, node.Name))
        break
      default: {
        const code = runtimeCode(tree, node)
        if (code !== undefined) commands.push(evaluated(code))
      }
    }
    return true
  })
  if (nodes > MAX_NODES) return { ok: false, reason: `it has more than ${MAX_NODES} syntax nodes (about ${MAX_NODES / 6} commands)` }
  return { ok: true, commands, writes }
}

/** The simple command of a statement, if it is one; a compound statement passes on its input. */
function statement(tree: Tree, stmt: SyntaxNode, state: { commands: SimpleCommand[], fed: FedRange[], timed: Set<number> }): void {
  const feed = feedOf(tree, stmt, state.fed)
  const command = stmt.Cmd as SyntaxNode | null
  if (!command) return
  switch (tree.type(command)) {
    case 'CallExpr': {
      let words = expandBraces((command.Args as SyntaxNode[]).map((node) => word(tree, node)))
      if (state.timed.has(stmt.Pos().Offset()) && words.length > 0 && staticText(words[0]) === '--') words = words.slice(1)
      const assigns = (command.Assigns as SyntaxNode[]).map((node) => assignment(tree, node))
      if (words.length > 0 || assigns.length > 0) state.commands.push({ words, assigns, input: feed.input, otherInput: feed.other })
      state.commands.push(...variableRedirections(tree, command.Args as SyntaxNode[]))
      break
    }
    case 'DeclClause':
      state.commands.push({ words: expandBraces(declaration(tree, command)) })
      break
    default:
      if (feed.input || feed.other) state.fed.push({ start: stmt.Pos().Offset(), end: stmt.End().Offset(), feed })
  }
}

/**
 * `for NAME in …` / `select NAME in …` with a capital letter in the name, as environment
 * variables are named (`for PATH in /tmp/x; do git status; done`): an assignment statement.
 */
function loopVariable(tree: Tree, iteration: SyntaxNode): SimpleCommand {
  const items = iteration.Items as SyntaxNode[]
  const values = items.length === 0 ? '"$@"'
    : tree.bytes.subarray(items[0].Pos().Offset(), items[items.length - 1].End().Offset()).toString('utf8')
  return { words: [], assigns: [{ parts: [...literalWord(`${iteration.Name.Value}=`).parts, { kind: 'dynamic', source: values }] }] }
}

/**
 * `coproc NAME { …; }` makes `NAME` an array (of the coprocess's descriptors): an assignment
 * statement, so that a later declaration finds it an array (`arrays.ts`).
 */
function coprocArray(tree: Tree, name: SyntaxNode): SimpleCommand {
  return { words: [], assigns: [{ parts: [...literalWord(`${tree.sourceOf(name)}=`).parts, { kind: 'dynamic', source: '(coproc)', array: true }] }] }
}

/** A command standing for code bash evaluates at run time. */
const evaluated = (source: string): SimpleCommand => ({ words: [{ parts: [{ kind: 'dynamic', source }] }] })

function part(tree: Tree, node: SyntaxNode): Part[] {
  switch (tree.type(node)) {
    case 'Lit': return unquotedParts(node.Value)
    case 'SglQuoted': return [{ kind: 'literal', text: node.Dollar ? ansiC(node.Value) : node.Value, quoted: true }]
    case 'DblQuoted': return (node.Parts as SyntaxNode[]).flatMap((inner): Part[] => (tree.type(inner) === 'Lit'
      ? [{ kind: 'literal', text: doubleQuoted(inner.Value), quoted: true }]
      : part(tree, inner).map((p) => ({ ...p, quoted: true }))))
    default: return [{ kind: 'dynamic', source: tree.sourceOf(node) }]
  }
}

function word(tree: Tree, node: SyntaxNode): Word {
  return { parts: (node.Parts as SyntaxNode[]).flatMap((p) => part(tree, p)) }
}

const literalWord = (text: string): Word => ({ parts: [{ kind: 'literal', text, quoted: false }] })
const dynamicWord = (source: string): Word => ({ parts: [{ kind: 'dynamic', source }] })

/**
 * What here-documents and here-strings feed a statement: its own, else those of the compound
 * statement around it (`{ bash; } <<< 'rm x'`), innermost first.
 */
function feedOf(tree: Tree, stmt: SyntaxNode, fed: readonly FedRange[]): Feed {
  const at = stmt.Pos().Offset()
  let around: FedRange | undefined
  for (const range of fed) {
    if (range.start <= at && at < range.end && (!around || range.start >= around.start)) around = range
  }
  const own = ownFeed(tree, stmt)
  return { input: own.input ?? around?.feed.input, other: own.other || (around?.feed.other ?? false) }
}

function ownFeed(tree: Tree, stmt: SyntaxNode): Feed {
  const feed: Feed = { other: false }
  for (const redirect of (stmt.Redirs ?? []) as SyntaxNode[]) {
    const at = redirect.OpPos.Offset()
    const text = redirect.Hdoc ? heredoc(tree, redirect)
      : tree.bytes.subarray(at, at + 3).toString() === '<<<' ? word(tree, redirect.Word) : undefined
    if (text === undefined) continue
    if (redirect.N && redirect.N.Value !== '0') feed.other = true
    else feed.input = text
  }
  return feed
}

/** A here-document body: literal when its delimiter is quoted, else expanded like "…". */
function heredoc(tree: Tree, redirect: SyntaxNode): Word {
  const delimiter = redirect.Word.Parts as SyntaxNode[]
  const quoted = delimiter.some((p) => tree.type(p) !== 'Lit' || String(p.Value).includes('\\'))
  return {
    parts: (redirect.Hdoc.Parts as SyntaxNode[]).flatMap((p): Part[] => (tree.type(p) === 'Lit'
      ? [{ kind: 'literal', text: quoted ? p.Value : doubleQuoted(p.Value), quoted: true }]
      : [{ kind: 'dynamic', source: tree.sourceOf(p), quoted: true }])),
  }
}

/**
 * An assignment as one word, `NAME=value` or `NAME[0]=value`. One whose subscript is more
 * than a number (`a[$i]=1`, `a=([k]=v)`: subscripts are arithmetic) is a dynamic word.
 */
function assignment(tree: Tree, assign: SyntaxNode): Word {
  const elements = (assign.Array?.Elems ?? []) as SyntaxNode[]
  if ((assign.Index && !inertIndex(tree, assign.Index)) || elements.some((e) => e.Index && !inertIndex(tree, e.Index))) {
    return dynamicWord(tree.sourceOf(assign))
  }
  const index = assign.Index ? `[${tree.sourceOf(assign.Index)}]` : ''
  const name = literalWord(`${assign.Name.Value}${index}${assign.Append ? '+=' : '='}`)
  if (assign.Array) return { parts: [...name.parts, { kind: 'dynamic', source: tree.sourceOf(assign.Array), array: true }] }
  return assign.Value ? { parts: [...name.parts, ...word(tree, assign.Value).parts] } : name
}

/** `export A=1 -x b` as words: each assignment is one word. */
function declaration(tree: Tree, clause: SyntaxNode): Word[] {
  return [
    literalWord(clause.Variant.Value),
    ...(clause.Args as SyntaxNode[]).map((assign): Word => {
      if (!assign.Naked) return assignment(tree, assign)
      return assign.Value ? word(tree, assign.Value) : literalWord(assign.Name.Value)
    }),
  ]
}

/**
 * `{a[$i]}>f`: mvdan-sh reads a variable redirection whose name has a subscript as an argument,
 * where bash evaluates the subscript; each one is code known only at run time.
 */
function variableRedirections(tree: Tree, args: SyntaxNode[]): SimpleCommand[] {
  return args
    .filter((arg) => /^[<>]/.test(tree.bytes.subarray(arg.End().Offset(), arg.End().Offset() + 1).toString('latin1')))
    .map((arg) => tree.sourceOf(arg))
    .filter((text) => /^\{[^}]*\[.*\}$/s.test(text))
    .map(evaluated)
}

/** Whether a redirection writes to a file: `>`, `>>`, `>|`, `&>`, `<>`, or `>&` to a name. */
function writesFile(tree: Tree, redirect: SyntaxNode): boolean {
  const at = redirect.OpPos.Offset()
  const op = /^(&>>?|>>|>\||>&|<>|>|<&|<<<|<<-|<<|<)/.exec(tree.bytes.subarray(at, at + 3).toString('latin1'))?.[1] ?? '>'
  if (op.startsWith('<') && op !== '<>') return false
  const target = redirect.Word ? staticText(word(tree, redirect.Word)) : undefined
  if (target === '/dev/null' || target === '/dev/stdout' || target === '/dev/stderr') return false
  return !(op === '>&' && target !== undefined && /^(\d+-?|-)$/.test(target))
}

/**
 * Arithmetic that only numbers and operators make up (`1 + 2`, `$# > 0`, `${#x} * 2`). A name,
 * or an expansion that could hold one, is evaluated as arithmetic in turn: `x='a[$(rm y)]'` and
 * `(( x ))` runs `rm y`.
 */
const INERT_ARITHMETIC = /^(?:[\s\d+\-*/%()<>=!&|^~?:,]|\$[#?$!]|\$\{#[A-Za-z_][A-Za-z0-9_]*\})*$/

function inert(tree: Tree, node: SyntaxNode | null): boolean {
  return node === null || INERT_ARITHMETIC.test(tree.sourceOf(node))
}

/** A subscript bash does not evaluate into code: a number, `@` or `*`. */
function inertIndex(tree: Tree, node: SyntaxNode): boolean {
  const text = tree.sourceOf(node)
  return text === '@' || text === '*' || (/\d/.test(text) && INERT_ARITHMETIC.test(text))
}

/** The source of code that bash evaluates at run time in `node`, if it is such a node. */
function runtimeCode(tree: Tree, node: SyntaxNode): string | undefined {
  switch (tree.type(node)) {
    case 'ArithmCmd':
    case 'ArithmExp':
      return inert(tree, node.X) ? undefined : tree.sourceOf(node)
    case 'LetClause':
    case 'CStyleLoop':
      return tree.sourceOf(node)
    case 'TestClause':
      return evaluatingTest(tree, node) ? tree.sourceOf(node) : undefined
    case 'ParamExp':
      return evaluatingExpansion(tree, node) ? tree.sourceOf(node) : undefined
    default:
      return undefined
  }
}

/**
 * `${!x}` (indirection), `${x@P}` (and every `@` operator), `${a[i]}` and `${x:i:n}` (arithmetic):
 * the value of a variable becomes a name, a subscript or a prompt, which can run commands; and
 * any operator on a variable that is code (`${PS4:=…}` assigns it).
 */
function evaluatingExpansion(tree: Tree, node: SyntaxNode): boolean {
  if (node.Excl) return true
  // `${PS4:=$(rm x)}`, `${BASH_CMDS=…}`: an expansion may assign a variable that runs code.
  if (node.Exp && node.Param && isCodeVariable(String(node.Param.Value))) return true
  if (node.Index && !inertIndex(tree, node.Index)) return true
  if (node.Slice && !(inert(tree, node.Slice.Offset) && inert(tree, node.Slice.Length))) return true
  if (!node.Exp || !node.Param) return false
  const end = node.Exp.Word ? node.Exp.Word.Pos().Offset() : node.Rbrace.Offset()
  return tree.bytes.subarray(node.Param.End().Offset(), end).toString('utf8').endsWith('@')
}

/** `[[ … ]]` operators that evaluate nothing: string, pattern, file and logic tests. */
const QUIET_TESTS = new Set(['!', '&&', '||', '==', '=', '!=', '=~', '<', '>', '-nt', '-ot', '-ef',
  ...'abcdefghkprstuwxzno'.split('').map((letter) => `-${letter}`), '-G', '-L', '-N', '-O', '-S'])
/** `[[ … ]]` operators whose operands are arithmetic. */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
/** `[[ -v name ]]`, `[[ -R name ]]`: the name may carry a subscript. */
const NAME_TESTS = new Set(['-v', '-R'])
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?$/

/** Whether a `[[ … ]]` evaluates an operand as arithmetic or as a variable name. */
function evaluatingTest(tree: Tree, clause: SyntaxNode): boolean {
  let evaluates = false
  tree.sh.Walk(clause, (node) => {
    if (!node || evaluates) return false
    const type = tree.type(node)
    // Operands are words: what runs inside them is read on its own.
    if (type !== 'BinaryTest' && type !== 'UnaryTest') return type === 'TestClause' || type === 'ParenTest'
    const at = node.OpPos.Offset()
    const op = /^(?:-[A-Za-z]+|==|!=|=~|&&|\|\||[=<>!])/.exec(tree.bytes.subarray(at, at + 4).toString('latin1'))?.[0] ?? ''
    if (ARITHMETIC_TESTS.has(op)) evaluates = !inert(tree, node.X) || !inert(tree, node.Y)
    else if (NAME_TESTS.has(op)) evaluates = !NAME.test(tree.sourceOf(node.X))
    else evaluates = !QUIET_TESTS.has(op)
    return !evaluates
  })
  return evaluates
}
