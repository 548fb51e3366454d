import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toolName } from '../src/index.js'

const KERNEL_RULE = /^[A-Za-z0-9_-]{1,64}$/

describe('toolName', () => {
  it('is <server>__<tool> for a tool name that already fits', () => {
    expect(toolName('fs', 'read_text_file', new Set())).toBe('fs__read_text_file')
    expect(toolName('everything', 'get-sum', new Set())).toBe('everything__get-sum')
  })

  it('replaces characters outside the rule with "_"', () => {
    expect(toolName('dyn', 'weird.name', new Set())).toBe('dyn__weird_name')
  })

  it('gives a clashing or too long name a hash suffix, deterministically', () => {
    const clash = toolName('dyn', 'a.b', new Set(['dyn__a_b']))
    expect(clash).toMatch(/^dyn__a_b_[0-9a-f]{8}$/)
    expect(toolName('dyn', 'a.b', new Set(['dyn__a_b']))).toBe(clash)
    const long = toolName('srv', 'x'.repeat(100), new Set())
    expect(long).toHaveLength(64)
    expect(long).toMatch(/^srv__x+_[0-9a-f]{8}$/)
  })

  it('always fits the kernel rule and never repeats a name of the same server', () => {
    const server = fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/)
    fc.assert(fc.property(server, fc.array(fc.string({ maxLength: 120 }), { maxLength: 30 }), (srv, tools) => {
      const taken = new Set<string>()
      for (const tool of new Set(tools)) {
        const name = toolName(srv, tool, taken)
        expect(name).toMatch(KERNEL_RULE)
        expect(name.startsWith(`${srv}__`)).toBe(true)
        expect(taken.has(name)).toBe(false)
        taken.add(name)
      }
    }))
  })
})
