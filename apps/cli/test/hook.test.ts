/**
 * `rein hook claude-code`, driven as Claude Code drives it: a real `rein` process per call,
 * the hook's JSON on stdin, and its exit code, stdout and stderr checked (DESIGN.md §7.5).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { project, requireBuild } from './helpers.js'
import { decisionOf, expectFailedClosed, hook, input, POLICY, withPlugin } from './hook/run.js'

beforeAll(requireBuild)

async function withPolicy(files: Record<string, string> = {}, yaml = POLICY) {
  const dir = await project({ 'rein.yaml': yaml, ...files })
  return { dir, pre: (tool: string, args: unknown, extra?: Record<string, unknown>) => hook(dir, input(dir, tool, args, extra)) }
}

describe('rein hook claude-code: PreToolUse', { timeout: 120_000 }, () => {
  it('allow: exit 0 and only the JSON answer on stdout', async () => {
    const { pre } = await withPolicy()
    const run = await pre('Bash', { command: 'git status' })
    expect(run.code).toBe(0)
    expect(run.stdout.trim().split('\n')).toHaveLength(1)
    expect(decisionOf(run)).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: "allowed by rein's policy" })
  })

  it('ask: exit 0 with the reason; a tool the hook does not know is judged by the rules as given', async () => {
    const { pre } = await withPolicy()
    const run = await pre('TodoWrite', { todos: [] })
    expect([run.code, decisionOf(run).permissionDecision]).toEqual([0, 'ask'])
    expect(decisionOf(run).permissionDecisionReason).toContain('TodoWrite')
  })

  it('deny: exit 2, the reason on stderr, nothing on stdout, and the refusal audited at once', async () => {
    const { dir, pre } = await withPolicy()
    const run = await pre('Bash', { command: 'rm -rf /' })
    expect([run.code, run.stdout, run.stderr.trim()]).toEqual([2, '', 'rm is never run here'])
    const [line] = (await readFile(join(dir, 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
    expect(line).toMatchObject({ id: 'toolu_1', name: 'Bash', arguments: { command: 'rm -rf /' }, decision: 'deny', code: 'TOOL_DENIED' })
  })

  // Spellings reported to get past Claude Code's own Bash rules: each is denied under a deny of
  // `rm *`, and none is allowed by the allow rules for `git status` and `npm run test*`.
  it.each([
    ['a compound command (&&)', 'git status && rm -rf x'],
    ['a compound command (;)', 'git status; rm -rf x'],
    ['a pipe', 'git status | rm -rf x'],
    ['a path to the program', '/bin/rm -rf x'],
    ['quotes inside the program name', 'r""m -rf x'],
    ['sh -c', "sh -c 'rm -rf x'"],
    ['a command substitution', 'git status $(rm -rf x)'],
    ['backquotes', 'npm run test `rm -rf x`'],
    ['a newline', 'npm run test\nrm -rf x'],
    ['timeout', 'timeout 5 rm -rf x'],
    ['nice', 'nice -n 10 rm -rf x'],
    ['xargs', 'echo x | xargs rm -rf'],
  ])('%s is denied: %j', async (_label, command) => {
    const { pre } = await withPolicy()
    const run = await pre('Bash', { command })
    expect([run.code, run.stdout, run.stderr.trim()]).toEqual([2, '', 'rm is never run here'])
  })

  it('paths arrive absolute; rules written ./x are read from the input\'s cwd, after normalising', async () => {
    const { dir, pre } = await withPolicy()
    expect(decisionOf(await pre('Read', { file_path: join(dir, 'src', 'a.ts') })).permissionDecision).toBe('allow')
    for (const file_path of [join(dir, '.env'), `${dir}/src/../.env`]) {
      expect((await pre('Read', { file_path })).code).toBe(2)
    }
    expect(decisionOf(await pre('Read', { file_path: `${dir}/src/../../outside.ts` })).permissionDecision).toBe('ask')
    expect((await pre('Read', { file_path: '/etc/../etc/shadow' })).stderr).toContain('not the shadow file')
  })

  it('a tool name that is also a property of every object (toString, constructor) is a tool rein does not know', async () => {
    const { pre } = await withPolicy()
    for (const name of ['toString', 'constructor', '__proto__']) {
      const run = await pre(name, { any: 1 })
      expect([name, run.code, decisionOf(run).permissionDecision]).toEqual([name, 0, 'ask'])
    }
  })

  it('mcp__<server>__<tool> is also rein\'s <server>__<tool>', async () => {
    const { pre } = await withPolicy()
    const run = await pre('mcp__github__delete_repo', { repo: 'x' })
    expect([run.code, run.stderr.trim()]).toEqual([2, 'repositories are never deleted'])
  })

  it('a policy in Claude Code\'s permissions syntax holds against the spellings that got past Claude Code', async () => {
    const { dir, pre } = await withPolicy({}, `
plugins:
  - use: '@rein/plugin-permission-guard'
    config:
      default: deny
      permissions:
        allow: ['Bash(git status)', 'Bash(npm run test:*)', 'Read(./src/**)']
        deny: ['Bash(rm:*)', 'Read(./.env)']
`)
    const verdicts: Record<string, number> = {}
    for (const command of ['git status', 'npm run test -- --watch', 'git status && rm -rf x', 'git status\n/bin/rm x', "'r'm x", 'sh -c "rm x"', 'timeout 5 rm x']) {
      verdicts[command] = (await pre('Bash', { command })).code
    }
    expect(verdicts).toEqual({
      'git status': 0, 'npm run test -- --watch': 0, 'git status && rm -rf x': 2, 'git status\n/bin/rm x': 2,
      "'r'm x": 2, 'sh -c "rm x"': 2, 'timeout 5 rm x': 2,
    })
    const read = async (path: string) => (await pre('Read', { file_path: `${dir}/${path}` })).code // not join(): it would normalise
    expect([await read('src/a.ts'), await read('src/../.env'), await read('.env')]).toEqual([0, 2, 2])
  })

  it('default deny with a rules: allow of ./src/**: the absolute spelling\'s default does not undo the allow; a deny written absolute holds', async () => {
    const { dir, pre } = await withPolicy()
    await writeFile(join(dir, 'rein.yaml'), `
plugins:
  - use: '@rein/plugin-permission-guard'
    config:
      default: deny
      rules:
        - { tool: Read, action: deny, when: { file_path: 'CWD/src/secret/**' }, reason: no secrets }
        - { tool: Read, action: allow, when: { file_path: './src/**' } }
`.replace('CWD', dir))
    const read = async (path: string) => { const run = await pre('Read', { file_path: `${dir}/${path}` }); return [run.code, run.stderr.trim()] }
    expect(await read('src/a.ts')).toEqual([0, ''])
    expect(await read('src/secret/key.pem')).toEqual([2, 'no secrets'])
    expect((await read('other.ts'))[0]).toBe(2)
  })

  it('an input that does not fit the tool\'s documented schema is refused', async () => {
    const { pre } = await withPolicy()
    const run = await pre('Bash', { cmd: 'git status' })
    expect([run.code, run.stdout]).toEqual([2, ''])
    expect(run.stderr).toContain('INVALID_ARGS')
  })
})

describe('rein hook claude-code: a plugin\'s allow and rewrites', { timeout: 120_000 }, () => {
  const allowAll = `export const name = 'allow-all'\nexport const inject = ['tools']\nexport function apply(ctx) { ctx.on('tools/pre-execute', async () => ({ kind: 'allow' })) }\n`
  const rewrite = (to: string) => `export const name = 'quiet'\nexport const inject = ['tools']\nexport function apply(ctx) {\n  ctx.on('tools/pre-execute', async (exec, next) => exec.arguments.command === 'npm run test' ? { kind: 'allow', arguments: { command: ${JSON.stringify(to)} } } : next())\n}\n`

  it('a plugin that allows everything cannot override a deny', async () => {
    const { pre } = await withPolicy({ 'allow-all.mjs': allowAll }, withPlugin('allow-all.mjs'))
    const run = await pre('Bash', { command: 'rm -rf x' })
    expect([run.code, run.stderr.trim()]).toEqual([2, 'rm is never run here'])
  })

  it('a rewrite comes back as updatedInput', async () => {
    const dir = await project({ 'rein.yaml': withPlugin('quiet.mjs'), 'quiet.mjs': rewrite('npm run test --silent') })
    const run = await hook(dir, input(dir, 'Bash', { command: 'npm run test' }))
    expect([run.code, decisionOf(run)]).toEqual([0, expect.objectContaining({ permissionDecision: 'allow', updatedInput: { command: 'npm run test --silent' } })])
  })

  it('a rewrite into what the policy denies is denied', async () => {
    const dir = await project({ 'rein.yaml': withPlugin('quiet.mjs'), 'quiet.mjs': rewrite('rm -rf /') })
    const run = await hook(dir, input(dir, 'Bash', { command: 'npm run test' }))
    expect([run.code, run.stdout, run.stderr.trim()]).toEqual([2, '', 'rm is never run here'])
  })
})

describe('rein hook claude-code: PostToolUse', { timeout: 120_000 }, () => {
  it('writes the audit line of the call Claude Code ran and exits 0 with nothing on stdout', async () => {
    const { dir } = await withPolicy()
    const run = await hook(dir, input(dir, 'Bash', { command: 'git status' }, { hook_event_name: 'PostToolUse', tool_response: { stdout: 'clean' } }))
    expect([run.code, run.stdout]).toEqual([0, ''])
    const [line] = (await readFile(join(dir, 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
    expect(line).toMatchObject({ id: 'toolu_1', name: 'Bash', arguments: { command: 'git status' }, decision: 'allow', isError: false })
  })
})

describe('rein hook claude-code fails closed: exit 2 with the reason, never a stack trace', { timeout: 120_000 }, () => {
  it.each([
    ['bad JSON', '{"hook_event_name": "PreToolUse", ', /not JSON/],
    ['an empty stdin', '', /stdin was empty/],
    ['an unknown hook_event_name', JSON.stringify({ hook_event_name: 'Stop', tool_name: 'Bash', tool_input: {} }), /hook_event_name "Stop"/],
    ['a missing tool_input', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }), /tool_input of Bash is missing/],
    ['a tool name with odd characters', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash; rm', tool_input: {} }), /tool_name "Bash; rm" is not a tool name/],
  ])('%s', async (_label, stdin, message) => {
    const { dir } = await withPolicy()
    const run = await hook(dir, stdin)
    expectFailedClosed(run)
    expect(run.stderr).toMatch(message)
  })

  it('a 10 MB stdin', async () => {
    const { dir } = await withPolicy()
    const run = await hook(dir, Buffer.alloc(10 * 1024 * 1024, 'a'))
    expectFailedClosed(run)
    expect(run.stderr).toContain('larger than')
  })

  it('a config that does not load', async () => {
    const { dir } = await withPolicy({}, 'plugins:\n  - use: \'@rein/plugin-permission-guard\'\n    config: { default: maybe }\n')
    const run = await hook(dir, input(dir, 'Bash', { command: 'ls' }))
    expectFailedClosed(run)
    expect(run.stderr).toContain('the config did not load')
  })

  it('a plugin that crashes the process', async () => {
    const crash = `export const name = 'crash'\nexport const inject = ['tools']\nexport function apply(ctx) { ctx.on('tools/pre-execute', () => { setImmediate(() => { throw new Error('kaboom') }); return new Promise(() => {}) }) }\n`
    const { dir } = await withPolicy({ 'crash.mjs': crash }, withPlugin('crash.mjs'))
    const run = await hook(dir, input(dir, 'Bash', { command: 'git status' }))
    expectFailedClosed(run)
    expect(run.stderr).toContain('kaboom')
  })

  it('a plugin that leaves something running does not keep the answer past rein\'s exit', async () => {
    const linger = `export const name = 'linger'\nexport function apply() { setInterval(() => {}, 1000) }\n`
    const { dir } = await withPolicy({ 'linger.mjs': linger }, withPlugin('linger.mjs'))
    const run = await hook(dir, input(dir, 'Bash', { command: 'rm -rf x' }))
    expect([run.code, run.stderr.trim()]).toEqual([2, 'rm is never run here'])
  })

  it('rein\'s own time limit', async () => {
    const stall = `export const name = 'stall'\nexport const inject = ['tools']\nexport function apply(ctx) { ctx.on('tools/pre-execute', () => new Promise(() => {})) }\n`
    const { dir } = await withPolicy({ 'stall.mjs': stall }, withPlugin('stall.mjs'))
    const run = await hook(dir, input(dir, 'Bash', { command: 'git status' }), ['--timeout', '300'])
    expectFailedClosed(run)
    expect(run.stderr).toContain('no answer within 300 ms')
  })
})
