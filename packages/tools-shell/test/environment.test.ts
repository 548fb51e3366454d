import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
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

describe('what the allow-list does not do (a known limit, see the README)', () => {
  it('cannot hide the environment this process was started with from a command of the same user', async () => {
    // A variable this process was started with, and which the allow-list leaves out.
    const started = readFileSync('/proc/self/environ', 'utf8').split('\0').filter(Boolean)
    const hidden = started.find((line) => !/^(PATH|HOME|LANG)=/.test(line))!
    expect(hidden).toBeDefined()
    const sh = await shell()
    const value = valueOf(await sh.call({ command: 'env; echo ---; tr "\\0" "\\n" < /proc/$PPID/environ' }))
    const [own, parent] = value.stdout.split('---\n')
    expect(own.split('\n')).not.toContain(hidden)
    expect(parent.split('\n')).toContain(hidden)
  })
})

describe('REIN_IDEMPOTENCY_KEY', () => {
  it('is the call\'s exec.idempotencyKey, set for the command whatever the allow-list says', async () => {
    const keys: string[] = []
    const sh = await shell({ env: ['PATH'] }, (ctx) => {
      ctx.plugin({ name: 'key-watch', inject: ['tools'], apply: (c: Context) => c.on('tools/execute', (exec, next) => { keys.push(exec.idempotencyKey); return next() }) })
    })
    const session = { id: 'runs/a.jsonl' }
    const first = valueOf(await sh.call({ command: 'echo "$REIN_IDEMPOTENCY_KEY"' }, { session, turn: 1 }))
    const other = valueOf(await sh.call({ command: 'echo "$REIN_IDEMPOTENCY_KEY"' }, { session: { id: 'runs/b.jsonl' }, turn: 1 }))
    expect(first.stdout).toBe(`${keys[0]}\n`)
    expect(first.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
    expect(other.stdout).toBe(`${keys[1]}\n`)
    expect(other.stdout).not.toBe(first.stdout)
  })
})
