import { describe, expect, it } from 'vitest'
import { defineTool } from '@rein/kernel'
import { ignoresArguments, modeWithoutArguments } from '../src/tool-access.js'

describe('knowing a call\'s mode before its arguments exist', () => {
  it.each<[string, Function, boolean]>([
    ['() => true', () => true, true],
    ['async-free arrow of a constant', () => false, true],
    ['a method with no parameters', { m() { return true } }.m, true],
    ['(args) => …', (args: { path: string }) => args.path !== 'x', false],
    ['a default parameter', ({ write = false } = {}) => !write, false],
    ['a rest parameter', (...all: unknown[]) => all.length === 0, false],
    // eslint-disable-next-line prefer-rest-params
    ['a function reading `arguments`', function () { return arguments.length === 0 }, false],
  ])('%s: ignores its arguments = %s', (_what, fn, expected) => {
    expect(ignoresArguments(fn)).toBe(expected)
  })

  it('answers for tools whose check cannot see the arguments, and fails closed otherwise', () => {
    const tool = (name: string, isConcurrencySafe?: (args: any) => boolean) =>
      defineTool({ name, description: name, parameters: { type: 'object' }, isConcurrencySafe, execute: () => 'x' })
    const tools = [tool('reads', () => true), tool('writes', () => false), tool('depends', (args) => args.safe === true),
      tool('plain'), tool('throws', () => { throw new Error('no') }), undefined]
    expect(tools.map((t) => modeWithoutArguments(t)))
      .toEqual(['parallel', 'exclusive', undefined, 'exclusive', 'exclusive', 'exclusive'])
  })
})
