/**
 * Reads a YAML file and keeps where everything is. The file is only ever read. A syntax
 * error becomes a `ConfigError` naming the file, the line and the parser's message; after
 * a successful parse, `lineOf(path)` answers the line of any value so that later checks can
 * point at the exact key they reject.
 */
import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import { ConfigError, LoaderCodes } from './errors.js'

/** A path into the parsed value: map keys and sequence indexes. */
export type ValuePath = readonly (string | number)[]

/** A parsed YAML file with positions. */
export interface YamlSource {
  /** Absolute path of the file. */
  file: string
  /** Its folder: `./` strings and local modules resolve from here. */
  dir: string
  /** The plain value (maps become objects); `undefined` for an empty file. */
  data: unknown
  /** The 1-based line of the value at `path`, or of its deepest ancestor that exists. */
  lineOf(path: ValuePath): number
}

/** Reads and parses `path`. Throws `ConfigError` when the file is unreadable or not valid YAML. */
export async function readYaml(path: string): Promise<YamlSource> {
  const file = resolve(path)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message
    throw new ConfigError(LoaderCodes.CONFIG_UNREADABLE, { file }, `cannot read the file: ${reason}`, { cause: error })
  }
  return parseYaml(file, text)
}

/** Parses `text` as the content of `file`. Throws `ConfigError` on a syntax error. */
export function parseYaml(file: string, text: string): YamlSource {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: true })
  const [first] = doc.errors
  if (first) {
    const line = first.linePos?.[0].line ?? lineCounter.linePos(first.pos[0]).line
    throw new ConfigError(LoaderCodes.CONFIG_SYNTAX, { file, line }, `YAML syntax error: ${describeSyntaxError(first.message)}`)
  }
  const data = doc.contents === null ? undefined : doc.toJS({ maxAliasCount: 100 })
  return { file, dir: dirname(file), data, lineOf: (path) => findLine(doc, lineCounter, path) }
}

/** The parser's message without its own "at line N, column M:" suffix and snippet, plus the column. */
function describeSyntaxError(message: string): string {
  const [head = message] = message.split('\n')
  const match = /^(.*) at line \d+, column (\d+):?$/.exec(head)
  return match ? `${match[1]} (column ${match[2]})` : head
}

function findLine(doc: Document, counter: LineCounter, path: ValuePath): number {
  const lineAt = (node: { range?: [number, number, number] | null } | null | undefined, fallback: number) =>
    node?.range ? counter.linePos(node.range[0]).line : fallback
  let node: unknown = doc.contents
  let line = lineAt(node as Node, 1)
  for (const key of path) {
    if (isAlias(node)) node = node.resolve(doc)
    if (isMap(node)) {
      const pair = node.items.find((item) => String(isScalar(item.key) ? item.key.value : item.key) === String(key))
      if (!pair) break
      line = lineAt(pair.key as Node, line)
      node = pair.value
    } else if (isSeq(node) && typeof key === 'number' && key < node.items.length) {
      node = node.items[key]
      line = lineAt(node as Node, line)
    } else {
      break
    }
  }
  return line
}
