/**
 * Reads a YAML file and keeps where everything is. The file is only ever read, and never more
 * than `MAX_CONFIG_BYTES` of it. Everything that stops a file from being read as a value —
 * unreadable, too large, a syntax error, a repeated key, aliases that expand too far, a value
 * that is not plain data (a `!!set`, `!!omap`, `!!binary` or timestamp, or a value that
 * contains itself) — is a `ConfigErrors` naming the file and the line; parsing is linear in the
 * file's size. After a successful parse, `lineOf(path)` answers the line of any value, so that
 * later checks can point at the exact key they reject.
 */
import { open } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Document, Node } from 'yaml'
import { ConfigError, ConfigErrors, LoaderCodes } from './errors.js'
import { foreignValues } from './plain-data.js'
import { syntaxErrorPlace, syntaxErrorText } from './syntax-error.js'
import { formatPath } from './value-path.js'
import { aliasPastLimit, indexKeys, type KeyIndex } from './yaml-checks.js'
import { yaml } from './yaml-library.js'

/** A path into the parsed value: map keys and sequence indexes. */
export type ValuePath = readonly (string | number)[]

/** The largest config or example file read: 1 MiB. A harness config is a short list of entries. */
export const MAX_CONFIG_BYTES = 1024 * 1024

/** How many aliased values a file may expand to (the parser's guard against "billion laughs"). */
const MAX_ALIAS_COUNT = 100

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

/** Reads and parses `path`. Throws `ConfigErrors` when the file cannot be read as a value. */
export async function readYaml(path: string, options: { maxBytes?: number } = {}): Promise<YamlSource> {
  const file = resolve(path)
  const maxBytes = options.maxBytes ?? MAX_CONFIG_BYTES
  let text: string | undefined
  try {
    text = await readAtMost(file, maxBytes)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message
    throw new ConfigErrors([new ConfigError(LoaderCodes.CONFIG_UNREADABLE, { file }, `cannot read the file: ${reason}`, { cause: error })])
  }
  if (text === undefined) {
    throw new ConfigErrors([new ConfigError(LoaderCodes.CONFIG_UNREADABLE, { file },
      `the file is larger than ${formatBytes(maxBytes)}, the most rein reads of a config; keep large data in a file that a plugin reads`)])
  }
  return parseYaml(file, text)
}

/**
 * Parses `text` as the content of `file`. Throws `ConfigErrors` on a syntax error, repeated
 * keys, an alias bomb or a value that is not plain data.
 */
export function parseYaml(file: string, text: string): YamlSource {
  const { LineCounter, parseDocument } = yaml()
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false })
  const [first] = doc.errors
  if (first) {
    const { line, column } = syntaxErrorPlace(doc, first, text, lineCounter)
    throw new ConfigErrors([new ConfigError(LoaderCodes.CONFIG_SYNTAX, { file, line }, `YAML syntax error: ${syntaxErrorText(first)} (column ${column})`)])
  }
  const lineAt = (node: unknown, fallback: number) => {
    const range = (node as Node | null | undefined)?.range
    return range ? lineCounter.linePos(range[0]).line : fallback
  }
  const { index, duplicates } = indexKeys(doc)
  if (duplicates.length) {
    throw new ConfigErrors(duplicates.map(({ key, pair, first }) => new ConfigError(LoaderCodes.CONFIG_SYNTAX, { file, line: lineAt(pair.key, 1) },
      `duplicate key "${key.replace(/^\0/, '')}" (first at line ${lineAt(first.key, 1)}); a key appears once in a mapping, so merge the two or remove one`)))
  }
  let data: unknown
  try {
    data = doc.contents === null ? undefined : doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error
    const alias = aliasPastLimit(doc, MAX_ALIAS_COUNT)
    const detail = alias && /alias count/i.test(error.message)
      ? `the aliases expand to more than ${MAX_ALIAS_COUNT} values by *${alias.source} here, which is refused as a resource ` +
        'exhaustion attack ("billion laughs"); write the values out, or use fewer nested aliases'
      : `YAML alias error: ${error.message}`
    throw new ConfigErrors([new ConfigError(LoaderCodes.CONFIG_SYNTAX, { file, line: lineAt(alias, 1) }, detail, { cause: error })])
  }
  const lineOf = (path: ValuePath) => findLine(doc, index, lineAt, path)
  const foreign = foreignValues(data)
  if (foreign.length) {
    throw new ConfigErrors(foreign.map(({ path, detail }) => new ConfigError(LoaderCodes.CONFIG_INVALID, { file, line: lineOf(path) },
      `${path.length ? formatPath(path) : 'the file\'s value'} ${detail}`)))
  }
  return { file, dir: dirname(file), data, lineOf }
}

/** The file's text, or undefined when it holds more than `maxBytes` (read no further than that). */
async function readAtMost(file: string, maxBytes: number): Promise<string | undefined> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(maxBytes + 1)
    let length = 0
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
    }
    return length > maxBytes ? undefined : buffer.toString('utf8', 0, length)
  } finally {
    await handle.close()
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB (${bytes} bytes)` : `${bytes} bytes`
}

function findLine(doc: Document, index: KeyIndex, lineAt: (node: unknown, fallback: number) => number, path: ValuePath): number {
  const { isAlias, isMap, isSeq } = yaml()
  let node: unknown = doc.contents
  let line = lineAt(node, 1)
  for (const key of path) {
    if (isAlias(node)) node = node.resolve(doc)
    if (isMap(node)) {
      const pair = index.get(node)?.get(String(key))
      if (!pair) break
      line = lineAt(pair.key, line)
      node = pair.value
    } else if (isSeq(node) && typeof key === 'number' && key < node.items.length) {
      node = node.items[key]
      line = lineAt(node, line)
    } else {
      break
    }
  }
  return line
}
