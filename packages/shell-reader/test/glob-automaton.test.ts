/**
 * The glob automaton against the RegExp compiler it replaced (kept here as the reference):
 * the same answers and the same rejections for random globs and texts, and linear work on
 * texts that made the RegExp backtrack for seconds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileGlob, GlobError } from '../src/glob.js'

/** The previous compiler: a glob as an anchored, backtracking RegExp. */
function referenceRegExp(glob: string): RegExp {
  const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const classChar = (c: string) => (/[\\\]\[^-]/.test(c) ? `\\${c}` : c)
  let i = 0
  const sequence = (depth: number): string => {
    let out = ''
    while (i < glob.length) {
      const c = glob[i]
      if (depth > 0 && (c === ',' || c === '}')) return out
      i++
      if (c === '*') {
        while (glob[i] === '*') i++
        out += '[\\s\\S]*'
      } else if (c === '?') out += '[\\s\\S]'
      else if (c === '\\') {
        if (i >= glob.length) throw new GlobError('lone \\')
        out += escape(glob[i++])
      } else if (c === '[') out += charClass()
      else if (c === '{') out += alternatives(depth + 1)
      else out += escape(c)
    }
    return out
  }
  const alternatives = (depth: number): string => {
    const options = [sequence(depth)]
    while (glob[i] === ',') {
      i++
      options.push(sequence(depth))
    }
    if (glob[i] !== '}') throw new GlobError('unclosed {')
    i++
    return `(?:${options.join('|')})`
  }
  const charClass = (): string => {
    let out = ''
    if (glob[i] === '!' || glob[i] === '^') {
      out += '^'
      i++
    }
    let first = true
    while (i < glob.length) {
      const c = glob[i++]
      if (c === ']' && !first) return `[${out}]`
      first = false
      if (c === '\\') {
        if (i >= glob.length) break
        out += classChar(glob[i++])
      } else out += c === '-' ? '-' : classChar(c)
    }
    throw new GlobError('unclosed [')
  }
  const source = sequence(0)
  try {
    return new RegExp(`^${source}$`, 'u')
  } catch (error) {
    throw new GlobError((error as Error).message)
  }
}

/** What a compiler makes of a glob and a text: the answer, or 'error' when the glob is rejected. */
function outcomeOf(compile: (glob: string) => { test(text: string): boolean }, glob: string, text: string): boolean | 'error' {
  let compiled: { test(text: string): boolean }
  try {
    compiled = compile(glob)
  } catch (error) {
    expect(error).toBeInstanceOf(GlobError)
    return 'error'
  }
  return compiled.test(text)
}

const globPart = fc.constantFrom('a', 'b', '-', '*', '?', '[', ']', '!', '^', '{', '}', ',', '\\', '😀', '\n', '/', '.')
const textPart = fc.constantFrom('a', 'b', '-', ']', '😀', '\n', '/', '.', '\uD83D', '!', '{', ',')

describe('glob automaton', () => {
  it('answers exactly as the RegExp compiler did, and rejects exactly the globs it rejected', () => {
    const glob = fc.array(globPart, { maxLength: 10 }).map((parts) => parts.join(''))
    const text = fc.array(textPart, { maxLength: 8 }).map((parts) => parts.join(''))
    fc.assert(fc.property(glob, text, (g, t) => {
      expect(outcomeOf(compileGlob, g, t)).toBe(outcomeOf(referenceRegExp, g, t))
    }), { numRuns: 20_000 })
  })

  it('agrees on texts built from the glob itself, where matches are likely', () => {
    const glob = fc.array(globPart, { maxLength: 10 }).map((parts) => parts.join(''))
    fc.assert(fc.property(glob, fc.array(textPart, { maxLength: 3 }), (g, extra) => {
      const t = g.replace(/[*?[\]{}\\!^,]/g, '') + extra.join('')
      expect(outcomeOf(compileGlob, g, t)).toBe(outcomeOf(referenceRegExp, g, t))
    }), { numRuns: 5_000 })
  })

  it('matches by code point and handles classes, ranges and nested braces', () => {
    const cases: [string, string, boolean][] = [
      ['[😀-😂]', '😁', true], ['[!😀]', '😀', false], ['??', '😀', false], ['?', '\uD83D', true],
      ['[--/]', '.', true], ['[a-c-e]', '-', true], ['[a-c-e]', 'd', false], ['[a\\-c]', 'b', false],
      ['[a-]', '-', true], ['[!]]', 'a', true], ['{,x}y', 'y', true], ['{a,b{c,d{e,f}}}g', 'bdfg', true],
      ['{a*,b}c', 'axxxc', true], ['x{}y', 'xy', true], ['a}b,c', 'a}b,c', true], ['*\n', 'a\n', true],
    ]
    for (const [glob, text, expected] of cases) expect([glob, text, compileGlob(glob).test(text)]).toEqual([glob, text, expected])
  })

  it('says which class range is out of order', () => {
    expect(() => compileGlob('[z-a]')).toThrow('is not a valid glob: the class range "z-a" is out of order')
  })

  it('does linear work on a text that made the RegExp backtrack', () => {
    const glob = compileGlob('*a*b*c*')
    const text = 'a'.repeat(100_000)
    const run = glob.run(text)
    expect(run.matched).toBe(false)
    expect(run.steps).toBeLessThanOrEqual((text.length + 1) * glob.size)
    const hit = glob.run(`${text}bc`)
    expect(hit.matched).toBe(true)
    expect(hit.steps).toBeLessThanOrEqual((text.length + 3) * glob.size)
    const shell = compileGlob('*rm*-rf*').run(`echo ${'rm '.repeat(40_000)}`)
    expect(shell.matched).toBe(false)
    expect(shell.steps).toBeLessThanOrEqual(120_006 * 9)
  })

  it('stops at a trailing * as soon as the rest cannot matter', () => {
    const run = compileGlob('rm *').run(`rm ${'x'.repeat(100_000)}`)
    expect(run).toEqual({ matched: true, steps: expect.any(Number) })
    expect(run.steps).toBeLessThan(10)
  })
})
