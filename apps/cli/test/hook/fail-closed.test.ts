/**
 * `rein hook claude-code` fails closed at every moment of its process (`src/hook/fail-closed.ts`):
 * a crash after the answer is exit 2, a refusal never carries the answer that lost the race,
 * and stdout carries the JSON answer alone, whatever a plugin prints.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { project, requireBuild } from '../helpers.js'
import { decisionOf, expectFailedClosed, hook, input, POLICY, withPlugin } from './run.js'

beforeAll(requireBuild)

/** A local plugin module whose `apply(ctx)` body is `body`. */
const plugin = (body: string, top = '') => `${top}\nexport const name = 'probe'\nexport const inject = ['tools']\nexport function apply(ctx) {\n${body}\n}\n`

/** The answer to `git status` (allowed by POLICY) with the plugin `source` listed first. */
async function gitStatus(source: string, args: string[] = []) {
  const dir = await project({ 'rein.yaml': withPlugin('probe.mjs', POLICY), 'probe.mjs': source })
  return hook(dir, input(dir, 'Bash', { command: 'git status' }), args)
}

describe('rein hook claude-code: a crash after the answer', { timeout: 120_000 }, () => {
  it.each([
    ['a throw', "setTimeout(() => { throw new Error('late throw') }, 50)", 'late throw'],
    ['an unhandled rejection', "setTimeout(() => { Promise.reject(new Error('late rejection')) }, 50)", 'late rejection'],
  ])('%s a handler scheduled before calling next() exits 2 with the reason, never Node\'s 1', async (_label, late, message) => {
    const run = await gitStatus(plugin(`ctx.on('tools/pre-execute', (exec, next) => { ${late}; return next() })`))
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(new RegExp(`^rein hook: rein failed, so the call is refused: ${message}$`, 'm'))
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('rein hook claude-code: a plugin\'s own process.exit(0)', { timeout: 120_000 }, () => {
  it('before the answer: exit 2, nothing on stdout', async () => {
    const run = await gitStatus(plugin("ctx.on('tools/pre-execute', () => process.exit(0))"))
    expectFailedClosed(run)
    expect(run.stderr).toContain('the process was ended before an answer')
  })

  it('after a deny was answered: the deny\'s exit 2 stands', async () => {
    // The exit comes once the deny's reason is on stderr, after the answer is decided.
    const top = `const write = process.stderr.write.bind(process.stderr)
process.stderr.write = (chunk, ...rest) => { if (String(chunk).includes('never run here')) setImmediate(() => process.exit(0)); return write(chunk, ...rest) }`
    const dir = await project({ 'rein.yaml': withPlugin('probe.mjs', POLICY), 'probe.mjs': plugin('', top) })
    const run = await hook(dir, input(dir, 'Bash', { command: 'rm -rf src' }))
    expect([run.code, run.stdout]).toEqual([2, ''])
    expect(run.stderr).toContain('rm is never run here')
  })
})

describe('rein hook claude-code: stdout is the answer alone', { timeout: 120_000 }, () => {
  it('a plugin\'s console.log at apply and console.info in a handler go to stderr', async () => {
    const run = await gitStatus(plugin("console.log('probe applied')\nctx.on('tools/pre-execute', (exec, next) => { console.info('probe judged'); return next() })"))
    expect(run.code).toBe(0)
    expect(run.stdout.trim().split('\n')).toHaveLength(1)
    expect(decisionOf(run).permissionDecision).toBe('allow')
    expect(run.stderr).toContain('probe applied\n')
    expect(run.stderr).toContain('probe judged\n')
  })
})

describe('rein hook claude-code: the answer that loses the race is not printed', { timeout: 120_000 }, () => {
  it('rein\'s time limit, then an allow: exit 2 and nothing on stdout', async () => {
    // The handler answers once rein has printed its refusal.
    const top = `let refused\nconst write = process.stderr.write.bind(process.stderr)
process.stderr.write = (chunk, ...rest) => { if (String(chunk).includes('no answer within')) refused?.(); return write(chunk, ...rest) }`
    const run = await gitStatus(plugin("ctx.on('tools/pre-execute', async (exec, next) => { await new Promise((resolve) => { refused = resolve }); return next() })", top), ['--timeout', '1500'])
    expectFailedClosed(run)
    expect(run.stderr).toContain('no answer within 1500 ms')
  })

  it('a crash, then an allow: exit 2 and nothing on stdout', async () => {
    const run = await gitStatus(plugin(`ctx.on('tools/pre-execute', async (exec, next) => {
  setImmediate(() => { throw new Error('kaboom') })
  await new Promise((resolve) => setImmediate(resolve))
  return next()
})`))
    expectFailedClosed(run)
    expect(run.stderr).toContain('kaboom')
  })
})

describe('rein hook claude-code --timeout', { timeout: 120_000 }, () => {
  it('above Node\'s longest timer is a usage error that names the limit', async () => {
    const run = await gitStatus(plugin(''), ['--timeout', '2147483648'])
    expect([run.code, run.stdout]).toEqual([2, ''])
    expect(run.stderr).toContain('from 1 to 2147483647')
  })
})
