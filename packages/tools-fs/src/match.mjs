/**
 * grep's line matching, the one step that runs a model-given regex. It runs in a worker thread
 * (`matcher.ts`), where a regex that backtracks for ever blocks only that thread, which an
 * abort or a deadline terminates. Pure: it gets texts, never paths, and touches no file (the
 * main thread opened and checked every file). Plain JavaScript, so a worker loads it as is.
 */

/** Longer matching lines are cut to this many characters (the line number still finds them). */
export const MAX_LINE_CHARS = 500

/**
 * @typedef {{ pattern: string, flags: string, texts: string[] }} MatchTask
 * @typedef {{ file: number, line: number, text: string }} Found
 */

/**
 * Every line of every text that `new RegExp(pattern, flags)` matches, in order: `file` is the
 * index in `texts`, `line` is 1-based. Lines end at `\n` or `\r\n`.
 * @param {MatchTask} task
 * @returns {Found[]}
 */
export function matchLines({ pattern, flags, texts }) {
  const regex = new RegExp(pattern, flags)
  /** @type {Found[]} */
  const found = []
  for (let file = 0; file < texts.length; file++) {
    const lines = texts[file].split(/\r?\n/)
    if (lines[lines.length - 1] === '') lines.pop()
    for (let i = 0; i < lines.length; i++) {
      if (regex.test(lines[i])) found.push({ file, line: i + 1, text: clip(lines[i]) })
    }
  }
  return found
}

/**
 * The line, or its first `MAX_LINE_CHARS` UTF-16 units and a note. A character outside the
 * BMP (an emoji) is two units; the cut never falls between them, since half of one is not
 * valid text: such a character is left out whole.
 * @param {string} line
 */
function clip(line) {
  if (line.length <= MAX_LINE_CHARS) return line
  const last = line.charCodeAt(MAX_LINE_CHARS - 1)
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS
  return `${line.slice(0, end)}… [line cut at ${MAX_LINE_CHARS} characters]`
}
