import { parseDocument } from 'yaml'
import { describe, expect, it } from 'vitest'
import { aliasPastLimit, indexKeys } from '../src/yaml-checks.js'

const doc = (text: string) => parseDocument(text, { uniqueKeys: false })

describe('indexKeys', () => {
  it('finds a repeated key in any mapping, however deep (~ and "" both load as the key "")', () => {
    const { duplicates } = indexKeys(doc('a: 1\nlist:\n  - { x: 1, y: 2, x: 3 }\n  - x: 4\n    deep: { z: 1, ~: 2, "": 3 }\nb: 2\n'))
    expect(duplicates.map((d) => d.key).sort()).toEqual(['', 'x'])
  })

  it('does not follow aliases: a merged copy is not a repeat', () => {
    expect(indexKeys(doc('base: &b { a: 1 }\nother: [*b, *b]\n')).duplicates).toEqual([])
  })
})

describe('aliasPastLimit', () => {
  it('is undefined without aliases, else the alias where the expansions pass the limit, else the largest', () => {
    expect(aliasPastLimit(doc('a: [1, 2]\n'), 100)).toBeUndefined()
    const small = doc('a: &a [1, 2]\nb: &b [*a, *a]\nc: *b\n')
    expect(aliasPastLimit(small, 100)?.source).toBe('b')
    expect(aliasPastLimit(small, 3)?.source).toBe('b')
    expect(aliasPastLimit(small, 1)?.source).toBe('a')
  })
})
