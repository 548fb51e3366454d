import { describe, expect, it } from 'vitest'
import type { ToolCall } from '@rein/kernel'
import { renameRepeatedIds } from '../src/call-ids.js'

const calls = (...ids: string[]): ToolCall[] => ids.map((id) => ({ id, name: 't', arguments: '{}' }))

describe('renameRepeatedIds', () => {
  it('leaves unique ids alone and says so', () => {
    const list = calls('a', 'b', 'c')
    const before = [...list]
    expect(renameRepeatedIds(list)).toBeUndefined()
    expect(list).toEqual(before)
    expect(list[0]).toBe(before[0])
  })

  it('renames every later call with an id to the first free <id>_<n>, and tells the id the model gave', () => {
    const list = calls('x', 'x', 'x_2', 'x', 'y', 'y')
    const given = renameRepeatedIds(list)
    expect(list.map((c) => c.id)).toEqual(['x', 'x_3', 'x_2', 'x_4', 'y', 'y_2'])
    expect(given).toEqual(new Map([[1, 'x'], [3, 'x'], [5, 'y']]))
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length)
  })

  it('stays linear for many repeats of one id', () => {
    const list = calls(...Array.from({ length: 20_000 }, () => 'same'))
    renameRepeatedIds(list)
    expect(new Set(list.map((c) => c.id)).size).toBe(20_000)
    expect(list.at(-1)!.id).toBe('same_20000')
  })
})
