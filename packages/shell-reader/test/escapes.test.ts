import { describe, expect, it } from 'vitest'
import { ansiC, doubleQuoted, unquotedParts } from '../src/escapes.js'

describe('escapes', () => {
  it('makes an escaped character quoted text, so it cannot act as a glob, and marks it escaped (brace expansion tells it apart)', () => {
    expect(unquotedParts('\\rm')).toEqual([{ kind: 'literal', text: 'r', quoted: true, escaped: true }, { kind: 'literal', text: 'm', quoted: false }])
    expect(unquotedParts('a\\*b')).toEqual([
      { kind: 'literal', text: 'a', quoted: false },
      { kind: 'literal', text: '*', quoted: true, escaped: true },
      { kind: 'literal', text: 'b', quoted: false },
    ])
    expect(unquotedParts('r\\\nm')).toEqual([{ kind: 'literal', text: 'rm', quoted: false }])
  })

  it('removes a backslash inside double quotes only before $ ` " \\ and a newline', () => {
    expect(doubleQuoted('\\$HOME \\` \\" \\\\ \\n a\\\nb')).toBe('$HOME ` " \\ \\n ab')
  })

  it('ends the text of $\'…\' at a NUL, as bash does', () => {
    for (const raw of ['r\\0m', 'r\\x00junk', 'r\\u0000q', 'r\\c@zz', 'r\\400x']) expect([raw, ansiC(raw)]).toEqual([raw, 'r'])
    expect(ansiC('a\\x01b')).toBe('a\x01b')
  })

  it('decodes the C escapes of $\'…\'', () => {
    expect(ansiC('\\x72m')).toBe('rm')
    expect(ansiC('\\162m')).toBe('rm')
    expect(ansiC('\\u0072\\U0000006d')).toBe('rm')
    expect(ansiC('a\\tb\\n\\e\\\\\\\'')).toBe('a\tb\n\x1b\\\'')
    expect(ansiC('\\cA')).toBe('\x01')
    expect(ansiC('\\q \\UFFFFFFFF')).toBe('\\q \\UFFFFFFFF')
  })
})
