import { withKernel } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as budget from '../src/index.js'

const load = (config: unknown) => withKernel(budget, config)

describe('the config', () => {
  it('has the defaults: no limits, refuse, a loop breaker of 3 in 10', () => {
    expect(budget.Config({})).toEqual({ cost: {}, onExceeded: 'refuse', repeat: 3, window: 10 })
    expect(budget.Config(undefined)).toEqual({ cost: {}, onExceeded: 'refuse', repeat: 3, window: 10 })
  })

  it('loads and hooks tools/execute with a valid config', async () => {
    const { ctx, fork } = await load({ maxCalls: 20, maxCost: 2.5, cost: { 'github__*': 1, '{read,write}_file': 0.1 }, onExceeded: 'end-run' })
    expect(fork.error).toBeFalsy()
    expect(ctx.tools.chain('tools/execute')).toEqual(['budget'])
  })

  it.each([
    [{ maxCals: 3 }, '$.maxCals is not a budget setting; valid keys: maxCalls, maxCallsPerTool, maxToolMs, maxCost, cost, onExceeded, repeat, window'],
    [{ maxCalls: -1 }, '$.maxCalls expected number >= 0 but got -1'],
    [{ maxCallsPerTool: 1.5 }, '$.maxCallsPerTool expected number multiple of 1 but got 1.5'],
    [{ maxToolMs: -10 }, '$.maxToolMs expected number >= 0 but got -10'],
    [{ maxCost: -0.5 }, '$.maxCost expected number >= 0 but got -0.5'],
    [{ cost: { bash: -1 } }, '$.cost.bash expected number >= 0 but got -1'],
    [{ cost: { 'git[hub': 1 } }, '$.cost.git[hub has a tool glob that cannot compile: "git[hub" has a "[" at 4 that is never closed with "]"'],
    [{ cost: { '{a,{b}}': 1 } }, '$.cost.{a,{b}} has a tool glob that cannot compile: "{a,{b}}" nests "{" at 4; alternatives cannot nest'],
    [{ cost: { '[z-a]': 1 } }, expect.stringMatching(/^\$\.cost\.\[z-a\] has a tool glob that cannot compile: "\[z-a\]" cannot be compiled/)],
    [{ onExceeded: 'stop' }, expect.stringMatching(/^\$\.onExceeded /)],
    [{ repeat: 1 }, '$.repeat must be at least 2 (1 would refuse every call), or 0 to turn the loop breaker off'],
    [{ repeat: 5, window: 4 }, '$.window is 4, fewer than repeat (5): the loop breaker could never trip; make it at least 5'],
    [[1], 'the budget config must be an object of settings, got an array'],
  ])('rejects %j at load with a message naming the key', async (config, message) => {
    const { ctx, fork } = await load(config)
    expect(fork.error?.message).toEqual(message)
    expect(ctx.tools.chain('tools/execute')).toEqual([])
  })

  it.each([
    ['maxCost: NaN (YAML .nan)', { maxCost: NaN }, '$.maxCost is NaN; it must be a finite number >= 0 (leave the key out for no limit)'],
    ['maxCost: Infinity', { maxCost: Infinity }, '$.maxCost is Infinity; it must be a finite number >= 0 (leave the key out for no limit)'],
    ['maxCalls: Infinity', { maxCalls: Infinity }, '$.maxCalls is Infinity; it must be a finite number >= 0 (leave the key out for no limit)'],
    ['a NaN cost', { cost: { '*': NaN } }, '$.cost.* is NaN; a cost must be a finite number >= 0'],
    ['an infinite cost', { cost: { bash: Infinity } }, '$.cost.bash is Infinity; a cost must be a finite number >= 0'],
  ])('rejects %s at load, naming the key and what it may be', async (_case, config, message) => {
    const { ctx, fork } = await load(config)
    expect(fork.error?.message).toEqual(message)
    expect(ctx.tools.chain('tools/execute')).toEqual([])
  })
})

describe('tool globs', () => {
  it.each([
    ['github__*', 'github__create_issue', true],
    ['github__*', 'gitlab__x', false],
    ['read_?', 'read_a', true],
    ['{read,write}_file', 'write_file', true],
    ['{read,write}_file', 'edit_file', false],
    ['[!b]ash', 'bash', false],
    ['[a-c]ash', 'bash', true],
    ['a.b', 'axb', false],
    ['a\\*', 'a*', true],
    ['a\\*', 'ab', false],
  ])('%s matches %s: %s', (glob, name, matches) => {
    expect(budget.compileGlob(glob)(name)).toBe(matches)
  })
})
