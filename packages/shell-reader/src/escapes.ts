/**
 * Quote and escape removal for the three kinds of shell text, exactly as bash does it: outside
 * quotes a backslash makes the next character literal (and a backslash-newline vanishes); inside
 * double quotes it does so only before `$`, a backquote, `"`, `\` and a newline; `$'…'` knows the
 * C escapes. An escaped character is returned as quoted text, so it can never act as a glob.
 */
import type { Part } from './syntax.js'

/** Unquoted word text, e.g. `\rm` or `a\*b`, as literal parts. */
export function unquotedParts(raw: string): Part[] {
  const parts: Part[] = []
  let plain = ''
  const flush = () => {
    if (plain) parts.push({ kind: 'literal', text: plain, quoted: false })
    plain = ''
  }
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== '\\' || i + 1 >= raw.length) {
      plain += raw[i]
      continue
    }
    const next = raw[++i]
    if (next === '\n') continue
    flush()
    parts.push({ kind: 'literal', text: next, quoted: true, escaped: true })
  }
  flush()
  return parts
}

/** The text between double quotes (without them). */
export function doubleQuoted(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c))
}

const SIMPLE: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
}

/**
 * The text of `$'…'` (without `$'` and `'`), with its C escapes decoded. A NUL ends it, as in
 * bash (`r$'\0junk'm` is `rm`): `\0`, `\x00`, `\u0000`, `\c@` and the octal that wraps to 0.
 */
export function ansiC(raw: string): string {
  const text = raw.replace(/\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(.)|(.))/gsu,
    (whole, octal?: string, hex?: string, u4?: string, u8?: string, control?: string, other?: string) => {
      if (octal) return String.fromCharCode(parseInt(octal, 8) & 0xff)
      if (hex) return String.fromCharCode(parseInt(hex, 16))
      const code = u4 ?? u8
      if (code) {
        const point = parseInt(code, 16)
        return point <= 0x10ffff ? String.fromCodePoint(point) : whole
      }
      if (control) return String.fromCharCode(control.charCodeAt(0) & 0x1f)
      return other !== undefined && Object.hasOwn(SIMPLE, other) ? SIMPLE[other] : whole
    })
  const nul = text.indexOf('\0')
  return nul < 0 ? text : text.slice(0, nul)
}
