/**
 * Text that a model, a tool, a provider or a session file controls, made safe to print on a
 * terminal. Such text must not drive the terminal: an escape sequence could hide what follows
 * (conceal), move the cursor to draw a line that is not there, or a bidi override could
 * reorder what is read. Every control character is therefore shown visibly instead, as an
 * escape a person can read (`\x1b`, `\x9b`, `\u202e`): C0 controls, DEL, C1 controls, and the
 * bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). Applied where such
 * text is printed, never to the CLI's own styling.
 */

/** Control characters of any kind, newline and tab included (for single-line fields). */
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
/** The same, but newline and tab are kept (for text shown over several lines). */
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** `\xNN` for a character up to U+00FF, else `\uNNNN`. */
function visible(char: string): string {
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` on one line: every control character, newlines and tabs included, shown escaped. */
export function safeLine(text: string): string {
  return String(text).replace(ANY_CONTROL, visible)
}

/**
 * `text` that may span lines: newlines and tabs are kept (a `\r\n` becomes `\n`), every other
 * control character is shown escaped (a lone `\r` too: it would let a line overwrite itself).
 */
export function safeText(text: string): string {
  return String(text).replace(/\r\n/g, '\n').replace(CONTROL_BUT_LAYOUT, visible)
}

/** Resets every style (SGR 0): whatever was printed before, what follows is drawn plainly. */
export const RESET_STYLE = '\x1b[0m'
