import type { ToolDefinition } from '@rein/kernel'
import { Logger } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ServerTools } from '../src/registrar.js'
import { captureWarnings } from './helpers.js'
import { idleConnection, listed } from './units.js'

/** A registrar over a plain map instead of a kernel, recording every register and dispose. */
function registrar() {
  const registered = new Map<string, ToolDefinition>()
  const log: string[] = []
  const tools = new ServerTools(idleConnection('srv'), (definition) => {
    if (definition.name === 'srv__broken') throw new Error('bad schema')
    registered.set(definition.name, definition)
    log.push(`+${definition.name}`)
    return () => {
      registered.delete(definition.name)
      log.push(`-${definition.name}`)
    }
  }, new Logger('mcp-test'))
  return { tools, registered, log }
}

describe('ServerTools', () => {
  it('registers every tool with its prefixed name', () => {
    const { tools, registered } = registrar()
    expect(tools.update([listed('a'), listed('b.c')])).toEqual(['srv__a', 'srv__b_c'])
    expect([...registered.keys()]).toEqual(['srv__a', 'srv__b_c'])
  })

  it('keeps unchanged tools, replaces changed ones and removes the ones gone', () => {
    const { tools, registered, log } = registrar()
    tools.update([listed('keep'), listed('change'), listed('drop')])
    const kept = registered.get('srv__keep')
    log.length = 0
    tools.update([listed('keep'), listed('change', { description: 'new' }), listed('add')])
    expect(log).toEqual(['-srv__change', '-srv__drop', '+srv__change', '+srv__add'])
    expect(registered.get('srv__keep')).toBe(kept)
    expect(registered.get('srv__change')?.description).toBe('new')
  })

  it('leaves out tools that need the task API, and tools the kernel refuses, with a warning each', () => {
    const warnings = captureWarnings('mcp-test')
    const { tools } = registrar()
    const list = [listed('task', { execution: { taskSupport: 'required' } }), listed('broken'), listed('ok')]
    expect(tools.update(list)).toEqual(['srv__ok'])
    expect(warnings).toEqual([
      'server "srv": tool "task" requires task-based execution, which rein does not support; skipped',
      'server "srv": tool "broken" was not registered: bad schema',
    ])
    tools.update(list)
    expect(warnings).toHaveLength(3)
  })
})
