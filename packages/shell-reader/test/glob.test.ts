import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileGlob, GlobError } from '../src/glob.js'

const matches = (glob: string, text: string) => compileGlob(glob).test(text)

describe('compileGlob', () => {
  it('matches the whole text, not a part of it', () => {
    expect(matches('read_*', 'read_file')).toBe(true)
    expect(matches('read', 'read_file')).toBe(false)
    expect(matches('file', 'read_file')).toBe(false)
  })

  it('lets * cross slashes, .. segments and newlines so a deny cannot be dodged', () => {
    expect(matches('rm *', 'rm -rf /tmp/../etc')).toBe(true)
    expect(matches('rm*', 'rm\n-rf /')).toBe(true)
    expect(matches('/etc/*', '/etc/ssh/sshd_config')).toBe(true)
    expect(matches('*', '.env')).toBe(true)
    expect(matches('*', '')).toBe(true)
  })

  it('supports ?, classes, negated classes, alternatives and escapes', () => {
    expect(matches('a?c', 'abc')).toBe(true)
    expect(matches('a?c', 'ac')).toBe(false)
    expect(matches('?', '😀')).toBe(true)
    expect(matches('[a-c]x', 'bx')).toBe(true)
    expect(matches('[!a-c]x', 'bx')).toBe(false)
    expect(matches('[^a-c]x', 'dx')).toBe(true)
    expect(matches('[]]', ']')).toBe(true)
    expect(matches('{read,list}_*', 'list_dir')).toBe(true)
    expect(matches('{read,list}_*', 'write_file')).toBe(false)
    expect(matches('x{a,{b,c}d}', 'xcd')).toBe(true)
    expect(matches('\\*', '*')).toBe(true)
    expect(matches('\\*', 'a')).toBe(false)
    expect(matches('a.b(c)+$', 'a.b(c)+$')).toBe(true)
    expect(matches('a.b', 'axb')).toBe(false)
  })

  it('rejects malformed globs with a message that says what is wrong', () => {
    expect(() => compileGlob('src/[')).toThrow(GlobError)
    expect(() => compileGlob('src/[')).toThrow('has a "[" without its closing "]"')
    expect(() => compileGlob('{a,b')).toThrow('has a "{" without its closing "}"')
    expect(() => compileGlob('a\\')).toThrow('ends with a lone "\\"')
    expect(() => compileGlob('[z-a]')).toThrow('is not a valid glob')
  })

  it('matches any text against "*" and every text against itself escaped', () => {
    const escapeGlob = (text: string) => text.replace(/[*?[\]{}\\]/g, '\\$&')
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      expect(matches('*', text)).toBe(true)
      expect(matches(escapeGlob(text), text)).toBe(true)
    }))
  })
})
