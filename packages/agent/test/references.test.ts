import { describe, expect, it } from 'vitest'
import { MAX_ARGUMENT_DEPTH } from '@rein/kernel'
import { lookup, referencedIds, substitute } from '../src/references.js'
import { referencesIn } from '../src/references.js'

const values: Record<string, unknown> = { call_1: { a: { b: [10, { c: 'deep' }] } }, call_2: 'text', n: 7, none: null, holder: { a: null } }
const valueOf = (id: string) => values[id] as never

describe('references', () => {
  it('finds every referenced id once, in nested strings only', () => {
    expect(referencedIds({ x: '${call_1.result} and ${n.result.k}', y: ['${call_2.result}', { z: '${call_1.result.a}' }], k: 5 }))
      .toEqual(['call_1', 'n', 'call_2'])
    expect(referencedIds({ shell: 'echo ${HOME} $PATH', '${call_9.result}': 'keys are not scanned' })).toEqual([])
  })

  it('replaces a whole-string reference by the typed value and an embedded one by its text', () => {
    expect(substitute({ whole: '${call_1.result.a.b}', num: '${n.result}', text: 'v=${call_1.result.a.b.1.c}, n=${n.result}, o=${call_1.result.a.b.1}' }, valueOf))
      .toEqual({ ok: true, value: { whole: [10, { c: 'deep' }], num: 7, text: 'v=deep, n=7, o={"c":"deep"}' } })
  })

  it('leaves its input untouched', () => {
    const args = { list: ['${call_2.result}'] }
    substitute(args, valueOf)
    expect(args).toEqual({ list: ['${call_2.result}'] })
  })

  it('reports the first path that does not exist', () => {
    expect(substitute({ x: '${call_1.result.a.missing}' }, valueOf))
      .toEqual({ ok: false, problem: '${call_1.result.a.missing} does not exist: result.a has no property "missing"' })
    expect(substitute({ x: 'in ${call_2.result.length}' }, valueOf))
      .toEqual({ ok: false, problem: '${call_2.result.length} does not exist: the result is a string, not an object' })
  })

  it('indexes arrays with whole numbers only', () => {
    expect(lookup([1, 2], ['1'])).toEqual({ ok: true, value: 2 })
    expect(lookup([1, 2], ['01'])).toMatchObject({ ok: false })
    expect(lookup([1, 2], ['length'])).toEqual({ ok: false, problem: 'the result is an array of 2 item(s), with no index "length"' })
  })

  it('substitutes a null value: null for a whole-string reference, "null" embedded', () => {
    expect(substitute({ whole: '${none.result}', path: '${holder.result.a}', text: 'x=${holder.result.a} y=${none.result}' }, valueOf))
      .toEqual({ ok: true, value: { whole: null, path: null, text: 'x=null y=null' } })
  })

  it('keeps a __proto__ key as own data, so that the kernel still sees (and refuses) it', () => {
    const args = JSON.parse('{"__proto__":{"admin":true},"x":"${n.result}","list":[{"__proto__":1}]}')
    const out = substitute(args, valueOf)
    expect(out.ok).toBe(true)
    const value = (out as { value: Record<string, unknown> }).value
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.hasOwn(value, '__proto__')).toBe(true)
    expect(Object.hasOwn((value.list as object[])[0], '__proto__')).toBe(true)
    expect(value.x).toBe(7)
  })

  it('stops at the kernel\'s nesting limit instead of walking deeper, at any depth', () => {
    const nest = (levels: number) => JSON.parse(`{"x":"\${n.result}","a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`)
    expect(referencesIn(nest(MAX_ARGUMENT_DEPTH))).toEqual(['n'])
    expect(substitute(nest(MAX_ARGUMENT_DEPTH), valueOf).ok).toBe(true)
    for (const levels of [MAX_ARGUMENT_DEPTH + 1, 100_000]) {
      expect(referencesIn(nest(levels))).toBeUndefined()
      expect(referencedIds(nest(levels))).toEqual([])
      expect(substitute(nest(levels), valueOf))
        .toEqual({ ok: false, problem: `the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep` })
    }
  })
})
