import { describe, expect, it } from 'vitest'
import { CheckedMark, CopyMark } from '../src/marks.js'

describe('marks on objects the kernel checked', () => {
  it('are seen only on the marked object itself: not through a proxy, a copy, or the other kind of mark', () => {
    const marked = Object.freeze(CheckedMark.add({ isError: false, value: 1, content: [] }))
    expect(CheckedMark.has(marked)).toBe(true)
    expect(CopyMark.has(marked)).toBe(false)
    expect(CheckedMark.has(new Proxy(marked, {}))).toBe(false)
    expect(CheckedMark.has(structuredClone(marked))).toBe(false)
    expect(CheckedMark.has({ ...marked })).toBe(false)
    expect(Reflect.ownKeys(marked)).toEqual(['isError', 'value', 'content'])
    expect(JSON.stringify(marked)).toBe('{"isError":false,"value":1,"content":[]}')
  })

  it('may be added twice, and leave the object as it was', () => {
    const list = [1, 2]
    expect(CopyMark.add(CopyMark.add(list))).toBe(list)
    expect(CopyMark.has(list)).toBe(true)
    expect(Object.getPrototypeOf(list)).toBe(Array.prototype)
    expect(Array.isArray(list) && Object.isExtensible(list)).toBe(true)
  })
})
