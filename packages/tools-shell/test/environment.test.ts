import { afterEach, describe, expect, it } from 'vitest'
import { pickEnv } from '../src/environment.js'
import { shell, valueOf } from './helpers.js'

describe('pickEnv', () => {
  it('takes only the named variables that are set', () => {
    expect(pickEnv(['A', 'MISSING'], { A: '1', B: '2' })).toEqual({ A: '1' })
  })
})

describe('the environment allow-list', () => {
  afterEach(() => {
    delete process.env.REIN_TEST_SECRET
    delete process.env.REIN_TEST_ALLOWED
  })

  it('passes only the listed variables', async () => {
    process.env.REIN_TEST_SECRET = 'sk-do-not-leak'
    process.env.REIN_TEST_ALLOWED = 'visible'
    const sh = await shell({ env: ['PATH', 'REIN_TEST_ALLOWED'] })
    const value = valueOf(await sh.call({ command: 'echo "[$REIN_TEST_SECRET][$REIN_TEST_ALLOWED]"; env' }))
    expect(value.stdout.split('\n')[0]).toBe('[][visible]')
    expect(value.stdout).not.toContain('sk-do-not-leak')
    expect(value.stdout).not.toMatch(/^HOME=/m)
  })

  it('passes PATH, HOME and LANG by default and nothing else from this process', async () => {
    process.env.REIN_TEST_SECRET = 'sk-do-not-leak'
    const sh = await shell()
    const value = valueOf(await sh.call({ command: 'echo "[$REIN_TEST_SECRET]"; echo "$HOME"' }))
    expect(value.stdout).toBe(`[]\n${process.env.HOME ?? ''}\n`)
  })
})
