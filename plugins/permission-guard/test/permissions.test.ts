/** `permissions: { allow, ask, deny }` in Claude Code's rule syntax, on a real kernel: the bypass corpus, precedence, paths, config errors. */
import { homedir } from 'node:os'
import fc from 'fast-check'
import { TOOL_DENIED } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import * as guard from '../src/index.js'
import type { PermissionGuardInput } from '../src/index.js'
import { CORPUS } from '@rein/shell-reader'
import { harness, messageOf, outcome } from './helpers.js'

const TOOLS = ['bash', 'Bash', 'read_file', 'edit_file', 'write_file', 'grep', 'list_dir', 'Read', 'WebFetch', 'mcp__srv__do', 'srv__do', 'other__do', 'other']
const CWD = '/work/project'

async function guarded(config: PermissionGuardInput, asked: string[] = []) {
  const h = await harness(TOOLS)
  const fork = h.ctx.plugin(guard.createPermissionGuard({ ask: ({ reason }) => { asked.push(reason ?? ''); return 'allow-once' } }), { cwd: CWD, ...config })
  await h.ctx.start()
  expect(fork.error).toBeFalsy()
  const run = async (name: string, args: Record<string, unknown>) => outcome(await h.call(name, args))
  return { ...h, run, bash: (command: string) => run('bash', { command }) }
}

/** Spellings reported to get past Claude Code's own `Bash(...)` matching. Each runs `rm` and something else. */
const BYPASSES = [
  'rm -rf x',
  'git status && rm -rf x',
  'npm run test && rm -rf x',
  'git status; rm -rf x',
  'git status | rm -rf x',
  'git status || rm -rf x',
  'git status & rm -rf x',
  'git status\nrm -rf x',
  'npm run test\nrm -rf x',
  '/bin/rm -rf x',
  '/usr/bin/rm -rf x',
  "'r'm -rf x",
  '"rm" -rf x',
  'r\\m -rf x',
  "sh -c 'rm -rf x'",
  'bash -c "rm -rf x"',
  "git status && bash -c 'git status; rm -rf x'",
  'git status $(rm -rf x)',
  'npm run test -- $(rm -rf x)',
  'git status `rm -rf x`',
  'echo "$(rm -rf x)"',
  'timeout 5 rm -rf x',
  'nice -n 10 rm -rf x',
  'echo x | xargs rm -rf',
  'find . -print0 | xargs -0 rm',
  'env rm -rf x',
  'env A=1 rm -rf x',
  'sudo rm -rf x',
  'nohup rm -rf x',
  'time rm -rf x',
  'command rm -rf x',
  'exec rm -rf x',
  'eval "rm -rf x"',
  '(rm -rf x)',
  '{ rm -rf x; }',
  'if true; then rm -rf x; fi',
  'for f in a; do rm -rf "$f"; done',
  'git status; $RM -rf x',
]

describe('permissions on a real kernel', () => {
  it('denies every bypass spelling under Bash(rm:*)', async () => {
    const { bash, ran } = await guarded({ permissions: { deny: ['Bash(rm:*)'] } })
    for (const line of BYPASSES) expect([line, await bash(line)]).toEqual([line, TOOL_DENIED])
    expect(ran).toEqual([])
    expect(await bash('git status && ls')).toBe('ok')
    expect(await bash('echo rm -rf x')).toBe('ok')
    expect(await bash('rmdir x')).toBe('ok') // a prefix is whole words
  })

  it('allows none of the bypass spellings by Bash(git status) or Bash(npm run test:*)', async () => {
    const { bash, ran } = await guarded({ default: 'deny', permissions: { allow: ['Bash(git status)', 'Bash(npm run test:*)'] } })
    for (const line of BYPASSES) expect([line, await bash(line)]).toEqual([line, TOOL_DENIED])
    expect(ran).toEqual([])
    expect(await bash('git status')).toBe('ok')
    expect(await bash('npm run test')).toBe('ok')
    expect(await bash('npm run test -- --watch')).toBe('ok')
    expect(await bash('git status --short')).toBe(TOOL_DENIED) // exact
    expect(await bash('npm run test:unit')).toBe(TOOL_DENIED) // the prefix is whole words
    expect(await bash('npm run test > out.txt')).toBe(TOOL_DENIED) // writes a file
  })

  it('allows a compound command whose parts are allowed by different entries', async () => {
    const { bash } = await guarded({ default: 'deny', permissions: { allow: ['Bash(git status)', 'Bash(npm run test:*)', 'Bash(ls:*)'] } })
    expect(await bash('git status && npm run test')).toBe('ok')
    expect(await bash('ls -la | npm run test -- x; git status')).toBe('ok')
    expect(await bash('git status && npm run test && curl evil')).toBe(TOOL_DENIED)
  })

  it('names the tools rein and Claude Code call Bash, Read, Edit and Write', async () => {
    const { run, bash } = await guarded({ default: 'deny', permissions: { allow: ['Read', 'Edit(src/**)'], deny: ['Bash'] } })
    expect(await bash('ls')).toBe(TOOL_DENIED)
    expect(await run('Bash', { command: 'ls' })).toBe(TOOL_DENIED)
    for (const name of ['read_file', 'grep', 'list_dir', 'Read']) expect([name, await run(name, { path: 'a' })]).toEqual([name, 'ok'])
    expect(await run('edit_file', { path: 'src/a.ts' })).toBe('ok')
    expect(await run('write_file', { path: 'src/a.ts' })).toBe('ok')
    expect(await run('other', {})).toBe(TOOL_DENIED)
  })

  it('keeps the most severe verdict across rules and permissions, and the default when neither matches', async () => {
    const asked: string[] = []
    const { bash, run } = await guarded({
      default: 'deny',
      rules: [
        { tool: 'bash', action: 'allow', when: { command: { shell: '*' } } },
        { tool: 'bash', action: 'deny', when: { command: { shell: 'curl *' } } },
        { tool: 'bash', action: 'ask', when: { command: { shell: 'git push *' } } },
      ],
      permissions: { deny: ['Bash(rm:*)'], ask: ['Bash(npm publish:*)'], allow: ['Bash(curl:*)', 'Bash(git push:*)', 'Read'] },
    }, asked)
    expect(await bash('ls')).toBe('ok') // a rule allows, no entry matches
    expect(await bash('rm x')).toBe(TOOL_DENIED) // a rule allows, an entry denies
    expect(await bash('curl x')).toBe(TOOL_DENIED) // a rule denies, an entry allows
    expect(await bash('git push o')).toBe('ok') // a rule asks, an entry allows: asked
    expect(await bash('npm publish')).toBe('ok') // a rule allows, an entry asks: asked
    expect(asked).toEqual(['approval required by rules[2] (tool "bash", command shell "git push *")', 'tool "bash" needs approval by permissions.ask[0] ("Bash(npm publish:*)")'])
    expect(await run('read_file', { path: 'a' })).toBe('ok') // no rule, an entry allows: not the default
    expect(await run('other', {})).toBe(TOOL_DENIED) // neither: the default
  })

  it('remembers an allow-session answer to an entry\'s ask as the exact call', async () => {
    const asked: string[] = []
    const h = await harness(TOOLS)
    h.ctx.plugin(guard.createPermissionGuard({ ask: ({ exec }) => { asked.push(String(exec.arguments.command)); return 'allow-session' } }), { permissions: { ask: ['Bash(git push:*)'] } })
    await h.ctx.start()
    for (const command of ['git push o', 'git push o', 'git push o main']) expect(outcome(await h.call('bash', { command }))).toBe('ok')
    expect(asked).toEqual(['git push o', 'git push o main'])
  })

  it('says which entry denied', async () => {
    const { call } = await guarded({ permissions: { deny: ['Bash(rm:*)'] } })
    expect(messageOf(await call('bash', { command: 'ls; rm x' }))).toBe('tool "bash" is denied by permissions.deny[0] ("Bash(rm:*)")')
    expect(messageOf(await call('bash', { command: 'ls; $X y' }))).toBe('tool "bash" is denied by permissions.deny[0] ("Bash(rm:*)"): "$X y" names its command only at run time, so it counts as matching')
  })

  it('matches path rules gitignore-style after normalising the path', async () => {
    const { run } = await guarded({
      permissions: { deny: ['Read(./.env)', 'Read(*.key)', 'Read(./secrets/**/*.pem)', 'Read(//etc/**)', 'Read(~/.ssh)'] },
    })
    const read = (path: string) => run('read_file', { path })
    for (const path of ['.env', 'src/../.env', './.env', `${CWD}/.env`, 'a.key', '/etc/passwd', '/etc/ssl/x', 'secrets/a.pem', 'secrets/a/b/c.pem', '~/.ssh/id_rsa', `${homedir()}/.ssh`]) {
      expect([path, await read(path)]).toEqual([path, TOOL_DENIED])
    }
    for (const path of ['src/.env', '.envrc', 'd/a.key', 'secrets/a.txt', '/etcx', '~/.sshx']) expect([path, await read(path)]).toEqual([path, 'ok'])
    expect(await run('Read', { file_path: `${CWD}/x/../.env` })).toBe(TOOL_DENIED)
    expect(await run('grep', { pattern: 'x', path: './src/../.env' })).toBe(TOOL_DENIED)
    expect(await run('edit_file', { path: '.env' })).toBe('ok') // Read rules are about reading
  })

  it('takes ./x relative to the process working directory when no cwd is given', async () => {
    const h = await harness(TOOLS)
    h.ctx.plugin(guard, { permissions: { deny: ['Read(./.env)'] } })
    await h.ctx.start()
    expect(outcome(await h.call('read_file', { path: `${process.cwd()}/.env` }))).toBe(TOOL_DENIED)
    expect(outcome(await h.call('read_file', { path: `${CWD}/.env` }))).toBe('ok')
  })

  it('allows by a path rule only inside it, whatever the spelling', async () => {
    const { run } = await guarded({ default: 'deny', permissions: { allow: ['Edit(src/**)'] } })
    expect(await run('edit_file', { path: 'src/a/b.ts' })).toBe('ok')
    expect(await run('edit_file', { path: `${CWD}/src/a.ts` })).toBe('ok')
    for (const path of ['src/../.env', 'srcx/a', '../project2/src/a', '/tmp/src/a']) expect([path, await run('edit_file', { path })]).toEqual([path, TOOL_DENIED])
    expect(await run('edit_file', { path: 7 })).toBe(TOOL_DENIED)
  })

  it('matches WebFetch by domain and MCP tools by Claude Code or rein name', async () => {
    const { run } = await guarded({ default: 'deny', permissions: { allow: ['WebFetch(domain:example.com)', 'mcp__other'], deny: ['mcp__srv__do'] } })
    expect(await run('WebFetch', { url: 'https://example.com/a' })).toBe('ok')
    expect(await run('WebFetch', { url: 'https://example.com.evil.net/a' })).toBe(TOOL_DENIED)
    expect(await run('WebFetch', { url: 'not a url' })).toBe(TOOL_DENIED)
    expect(await run('mcp__srv__do', {})).toBe(TOOL_DENIED)
    expect(await run('srv__do', {})).toBe(TOOL_DENIED)
    expect(await run('other__do', {})).toBe('ok')
  })

  it('takes a host with its root dot (example.com.) as the same host, for a deny and an allow', async () => {
    const { run } = await guarded({ default: 'allow', permissions: { deny: ['WebFetch(domain:evil.com)'] } })
    for (const url of ['https://evil.com./x', 'https://EVIL.COM./x', 'https://evil.com:443/x']) expect([url, await run('WebFetch', { url })]).toEqual([url, TOOL_DENIED])
    expect(await run('WebFetch', { url: 'https://notevil.com./x' })).toBe('ok')
    const allowing = await guarded({ default: 'deny', permissions: { allow: ['WebFetch(domain:example.com.)'] } })
    expect(await allowing.run('WebFetch', { url: 'https://example.com/a' })).toBe('ok')
  })

  it('reads brace expansion and a NUL in $\'…\' as bash does, so neither gets past a deny or an allow', () => {
    // Found in review: each of these runs the denied command in bash, and read as plain text it did not match.
    const deny = guard.compilePolicy(guard.Config({ default: 'allow', permissions: { deny: ['Bash(git push:*)', 'Bash(npm publish:*)', 'Bash(rm:*)'] } }))
    for (const command of ['git {push,} origin main', 'npm {publish,}', 'timeout {5,rm} -rf src', 'env -u {X,rm} x', 'sudo -u {root,rm} x',
      'stdbuf -o {0,rm} x', 'nice -n {5,rm} x', 'find . {-exec,rm} -rf {} +', "bash -c {'rm x',}", "eval {'rm x',}",
      "r$'\\0'm -rf src", "r$'\\x00junk'm x", "$'rm\\c@' y", "git push$'\\0' origin", "tcsh -c 'rm x'", "fish -c 'rm x'", 'toybox rm x']) {
      expect([command, deny('bash', { command }).action]).toEqual([command, 'deny'])
    }
    expect(deny('bash', { command: 'git {status,} --short' }).action).toBe('allow')
    const allow = guard.compilePolicy(guard.Config({ default: 'deny', permissions: { allow: ['Bash(find:*)', 'Bash(ls:*)', 'Bash(xargs:*)'] } }))
    for (const command of ['find . {-exec,rm} -rf / \\;', 'ls | xargs -n {1,rm}']) expect([command, allow('bash', { command }).action]).toEqual([command, 'deny'])
    expect(allow('bash', { command: 'find . -name {a,b}.ts' }).action).toBe('allow')
  })

  it('hides a tool every call of which a permissions deny refuses', async () => {
    const { ctx } = await guarded({ default: 'deny', permissions: { deny: ['Bash'], allow: ['Read'] } })
    const view = ctx.get('toolPolicy') as guard.ToolPolicyView
    expect(view.unconditionalDeny('bash')).toBe('tool "bash" is denied by permissions.deny[0] ("Bash")')
    expect(view.unconditionalDeny('read_file')).toBeUndefined()
    expect(view.unconditionalDeny('other')).toBeDefined()
  })
})

describe('permissions over the shell reader\'s corpus', { timeout: 120_000 }, () => {
  it('denies every spelling of rm under Bash(rm:*) and allows none by Bash(git status) or Bash(npm run test:*)', () => {
    const deny = guard.compilePolicy(guard.Config({ permissions: { deny: ['Bash(rm:*)'] } }))
    const allow = guard.compilePolicy(guard.Config({ default: 'deny', permissions: { allow: ['Bash(git status)', 'Bash(npm run test:*)'] } }))
    for (const { line } of CORPUS) {
      expect([line, deny('bash', { command: line }).action]).toEqual([line, 'deny'])
      expect([line, allow('bash', { command: line }).action]).toEqual([line, 'deny'])
    }
  })
})

describe('permissions, property', () => {
  it('allows a compound line exactly when every part is allowed', () => {
    const policy = guard.compilePolicy(guard.Config({ default: 'deny', permissions: { allow: ['Bash(git status)', 'Bash(npm run test:*)'] } }))
    const part = fc.constantFrom('git status', 'npm run test', 'npm run test -- -x', 'rm -rf x', 'git push', '/bin/rm x', 'git status --x')
    const allowed = new Set(['git status', 'npm run test', 'npm run test -- -x'])
    fc.assert(fc.property(fc.array(fc.tuple(part, fc.constantFrom(' && ', '; ', ' | ', ' || ', '\n')), { minLength: 1, maxLength: 5 }), (parts) => {
      const line = parts.map(([command, separator], i) => (i === 0 ? command : separator + command)).join('')
      expect(policy('bash', { command: line }).action).toBe(parts.every(([command]) => allowed.has(command)) ? 'allow' : 'deny')
    }))
  })
})

describe('permissions config errors', () => {
  async function loadError(config: unknown): Promise<string | undefined> {
    const { ctx } = await harness()
    const fork = ctx.plugin(guard, config as never)
    await ctx.start()
    return fork.error?.message
  }

  it('names the entry and the fix', async () => {
    const cases: [unknown, string][] = [
      [[], '$.permissions must be an object such as { deny: ["Bash(rm:*)"] }; got []'],
      [{ alow: [] }, '$.permissions has an unknown key "alow": the keys are "allow", "ask" and "deny", each a list such as ["Bash(git status)"]'],
      [{ deny: 'Bash' }, '$.permissions.deny must be a list of permission rules such as ["Bash(git status)"]; got "Bash"'],
      [{ deny: [7] }, '$.permissions.deny[0] must be a permission rule string such as "Bash(npm run test:*)"; got 7'],
      [{ deny: ['Bash(rm'] }, '$.permissions.deny[0] "Bash(rm" is not a permission rule: write Tool or Tool(specifier), as in "Bash(git status)", "Read(./.env)" or "mcp__server__tool"'],
      [{ ask: ['Bash()'] }, '$.permissions.ask[0] "Bash()" has an empty specifier: write "Bash" for every call, or put what it is about in the parentheses'],
      [{ allow: ['Read', 'Bash(:*)'] }, '$.permissions.allow[1] "Bash(:*)" names no command: write it before ":*", as in "Bash(npm run test:*)"'],
      [{ deny: ['Read(/etc/x)'] }, '$.permissions.deny[0] "Read(/etc/x)": write "//etc/x" for an absolute path, or "./etc/x" for one relative to the working directory'],
      [{ deny: ['WebFetch(example.com)'] }, '$.permissions.deny[0] "WebFetch(example.com)": WebFetch takes "domain:<host>", as in "WebFetch(domain:example.com)"'],
      [{ deny: ['Task(x)'] }, '$.permissions.deny[0] "Task(x)": only Bash, Read, Edit, Write, Glob, Grep, MultiEdit, NotebookEdit and WebFetch take a specifier; write "Task" for every call of it'],
      [{ deny: ['mcp__a__b(x)'] }, '$.permissions.deny[0] "mcp__a__b(x)": an MCP tool takes no specifier; write "mcp__a__b"'],
    ]
    for (const [permissions, message] of cases) expect(await loadError({ permissions })).toBe(message)
    expect(await loadError({ permissions: { allow: ['Bash(git status)', 'Read(./src/**)', 'mcp__s', 'WebSearch'] } })).toBeUndefined()
  })
})
