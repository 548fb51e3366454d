/**
 * The shape a shell parser hands to the reader: every simple command of a script, in source
 * order, wherever it sits (pipelines, lists, subshells, function bodies, loop bodies, and the
 * bodies of command and process substitutions, which appear as commands of their own). A word
 * keeps what matters for matching: which of its text is literal, and whether that text was
 * quoted; anything a shell would only know at run time is a `dynamic` part.
 */

/** One piece of a word. */
export type Part =
  /** Text after quote and escape removal. Unquoted text may still be globbed (`*`); a command's words come with their brace expressions expanded (`braces.ts`). */
  | {
    kind: 'literal'
    text: string
    quoted: boolean
    /** Written with a backslash before it outside quotes (`\,`): brace expansion tells it from a quoted one. */
    escaped?: true
  }
  /**
   * `$x`, `${x}`, `$((…))`, `$(…)`, `` `…` ``, `<(…)`: known only at run time. `quoted`
   * when it stands inside double quotes (then it is not split into words or globbed).
   */
  | {
    kind: 'dynamic'
    source: string
    quoted?: boolean
    /**
     * A compound array value written in the source (`x=(a $(b))`): the parser has read its
     * elements where they stand, so its text is not code bash parses again.
     */
    array?: true
  }

/** One shell word, as its parts. */
export interface Word {
  parts: Part[]
}

/**
 * A command name and its arguments; redirections are not part of it. Code that bash evaluates
 * at run time (`(( x ))`, `[[ a -eq b ]]`, `${!x}`, `${a[$i]}`) is a command whose one word is
 * a dynamic part holding that code, so that it reads as a command known only at run time.
 */
export interface SimpleCommand {
  /** The command name and its arguments; empty for a statement of assignments only (`A=1`). */
  words: Word[]
  /** The `NAME=value` assignments before the command (or alone), each as one word. */
  assigns?: Word[]
  /** What a here-document or here-string feeds to the command's standard input. */
  input?: Word
  /** Whether a here-document or here-string feeds another descriptor (`3<<< …`). */
  otherInput?: boolean
}

/**
 * A parser's answer: the commands, and whether any redirection writes to a file (`> f`, `>> f`,
 * `&> f`, `<> f`; not `2>&1` or `> /dev/null`); or why the text is not a script it can read.
 */
export type ParseResult =
  | { ok: true, commands: SimpleCommand[], writes: boolean }
  | { ok: false, reason: string }

/** Parses one script. Must never throw; an input it cannot read is `{ ok: false }`. */
export type ShellParser = (source: string) => ParseResult

/** A word's text, with each dynamic part written as its source. */
export function wordText(word: Word): string {
  return word.parts.map((part) => (part.kind === 'literal' ? part.text : part.source)).join('')
}

/** A word's text when it is fully known before the shell runs it, else undefined. */
export function staticText(word: Word): string | undefined {
  let text = ''
  for (const part of word.parts) {
    if (part.kind === 'dynamic') return undefined
    text += part.text
  }
  return text
}
