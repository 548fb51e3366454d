/**
 * Order declarations (`"rein": { "order": ... }` in a package.json) are read strictly, and a
 * harness whose list contradicts one gets one warning per pair, at the entry listed too early,
 * naming both packages, what goes wrong and the fix.
 */
import { describe, expect, it } from 'vitest'
import { orderWarnings, readOrderDeclaration, type OrderedPlugin } from '../src/order.js'

const plugin = (index: number, name: string, declaration?: OrderedPlugin['declaration']): OrderedPlugin =>
  ({ where: `rein.yaml:${index + 2} plugins[${index}] (${name})`, label: `plugins[${index}] (${name})`, package: name, declaration })

describe('reading an order declaration', () => {
  it('takes names mapped to consequences, or a plain list of names', () => {
    expect(readOrderDeclaration({ rein: { order: { outside: { b: 'b then wraps a' }, inside: ['c'] } } })).toEqual({
      outside: [{ other: 'b', consequence: 'b then wraps a' }],
      inside: [{ other: 'c', consequence: undefined }],
    })
  })

  it('is undefined for a package that declares nothing', () => {
    expect(readOrderDeclaration({ name: 'x' })).toBeUndefined()
    expect(readOrderDeclaration({ name: 'x', rein: {} })).toBeUndefined()
  })

  it('says what is wrong with a declaration of the wrong shape', () => {
    expect(readOrderDeclaration({ rein: { order: ['b'] } })).toBe('"rein.order" must be { outside?, inside? }')
    expect(readOrderDeclaration({ rein: { order: { outsdie: ['b'] } } }))
      .toBe('"rein.order" has the unknown key "outsdie"; valid keys: outside, inside')
    expect(readOrderDeclaration({ rein: { order: { inside: [1] } } }))
      .toBe('"rein.order.inside" must be a list of package names, or { "<package>": "<what goes wrong in the other order>" }')
    expect(readOrderDeclaration({ rein: { order: { outside: { b: '' } } } }))
      .toBe('"rein.order.outside" must be a list of package names, or { "<package>": "<what goes wrong in the other order>" }')
  })
})

describe('order warnings', () => {
  const outerDeclares = { outside: [{ other: 'inner', consequence: 'inner then wraps outer' }], inside: [] }

  it('warn at the entry listed too early, with the consequence and the fix', () => {
    expect(orderWarnings([plugin(0, 'inner'), plugin(1, 'outer', outerDeclares)])).toEqual([
      'rein.yaml:2 plugins[0] (inner) is listed before plugins[1] (outer): inner then wraps outer; list outer before inner',
    ])
  })

  it('say nothing when the list follows the declaration, or one of the pair is absent', () => {
    expect(orderWarnings([plugin(0, 'outer', outerDeclares), plugin(1, 'inner')])).toEqual([])
    expect(orderWarnings([plugin(0, 'other'), plugin(1, 'outer', outerDeclares)])).toEqual([])
  })

  it('read "inside" from the other side, and name the declaration when it gives no consequence', () => {
    const innerDeclares = { outside: [], inside: [{ other: 'outer', consequence: undefined }] }
    expect(orderWarnings([plugin(0, 'inner', innerDeclares), plugin(1, 'middle'), plugin(2, 'outer')])).toEqual([
      'rein.yaml:2 plugins[0] (inner) is listed before plugins[2] (outer): inner declares that it belongs inside outer; list outer before inner',
    ])
  })

  it('give one warning per pair, in list order, when both packages declare it', () => {
    const innerDeclares = { outside: [], inside: [{ other: 'outer', consequence: 'said by inner' }] }
    const lastDeclares = { outside: [{ other: 'outer', consequence: 'last then wraps outer' }], inside: [] }
    expect(orderWarnings([plugin(0, 'inner', innerDeclares), plugin(1, 'outer', outerDeclares), plugin(2, 'last', lastDeclares)])).toEqual([
      'rein.yaml:2 plugins[0] (inner) is listed before plugins[1] (outer): inner then wraps outer; list outer before inner',
      'rein.yaml:3 plugins[1] (outer) is listed before plugins[2] (last): last then wraps outer; list last before outer',
    ])
  })
})
