/** A command line of several commands is judged command by command: the most severe verdict wins. */
import { TOOL_DENIED } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { createPermissionGuard, type ApprovalAnswer, type PermissionGuardInput } from '../src/index.js'
import { compilePolicy, type PermissionGuardConfig } from '../src/rules.js'
import { harness, messageOf, outcome } from './helpers.js'

/** A kernel with the guard; the asker answers `answer(command)` and records what it was asked. */
async function guarded(config: PermissionGuardInput, answer: (command: string) => ApprovalAnswer = () => 'allow-once') {
  const asked: string[] = []
  const h = await harness()
  const fork = h.ctx.plugin(createPermissionGuard({
    ask: ({ exec }) => {
      const command = String(exec.arguments.command)
      asked.push(command)
      return answer(command)
    },
  }), config)
  await h.ctx.start()
  expect(fork.error).toBeFalsy()
  const bash = async (command: string) => {
    asked.length = 0
    const result = await h.call('bash', { command })
    return { outcome: outcome(result), message: messageOf(result), asked: [...asked] }
  }
  return { ...h, bash }
}

const policy = (config: Partial<PermissionGuardConfig>) => compilePolicy({ default: 'allow', rules: [], ...config })
const shell = (action: 'allow' | 'deny' | 'ask', glob: string) => ({ tool: 'bash', action, when: { command: { shell: glob } } })

describe('per-command evaluation on a real kernel', () => {
  it('never lets an ask undo an earlier deny in the same line, even after an allow for the session', async () => {
    const { bash, ran } = await guarded(
      { default: 'deny', rules: [shell('deny', 'rm *'), shell('ask', 'git push *')] },
      (command) => (command === 'git push origin main' ? 'allow-session' : 'deny'),
    )
    expect(await bash('git push origin main')).toEqual({ outcome: 'ok', message: undefined, asked: ['git push origin main'] })
    const denied = { outcome: TOOL_DENIED, message: 'tool "bash" is denied by rules[0] (tool "bash", command shell "rm *")', asked: [] }
    expect(await bash('git push origin main; rm victim')).toEqual(denied)
    expect(await bash('git push x || rm victim')).toEqual(denied)
    expect(await bash('rm victim && git push origin main')).toEqual(denied)
    expect(ran).toEqual(['bash'])
  })

  it('keeps a later ask over an earlier deny for the command both match', async () => {
    const { bash } = await guarded({ rules: [shell('deny', 'git *'), shell('ask', 'git push *')] })
    expect(await bash('git push o')).toMatchObject({ outcome: 'ok', asked: ['git push o'] })
    // `git status` is denied on its own, and the line with it.
    expect(await bash('git push o; git status')).toMatchObject({ outcome: TOOL_DENIED, asked: [] })
    expect(await bash('git status')).toMatchObject({ outcome: TOOL_DENIED, asked: [] })
  })

  it('asks when one command asks and an allow rule covers the line, naming the first asking rule', async () => {
    const { bash } = await guarded({
      default: 'deny',
      rules: [
        shell('allow', '{ls,pwd,git push,npm publish}{, *}'),
        { ...shell('ask', 'git push *'), reason: 'pushing needs a look' },
        shell('ask', 'npm publish{, *}'),
      ],
    }, () => 'deny')
    expect(await bash('ls && git push o && npm publish')).toEqual({
      outcome: TOOL_DENIED, message: '"bash" was denied at approval (pushing needs a look)', asked: ['ls && git push o && npm publish'],
    })
    expect(await bash('ls && pwd')).toMatchObject({ outcome: 'ok', asked: [] })
    // With no allow rule over the whole line, `ls` falls to the default deny: denied, not asked.
    const narrow = await guarded({ default: 'deny', rules: [shell('allow', 'ls{, *}'), shell('ask', 'git push *')] })
    expect(await narrow.bash('ls && git push o')).toMatchObject({ outcome: TOOL_DENIED, asked: [] })
    expect(await narrow.bash('git push o')).toMatchObject({ outcome: 'ok', asked: ['git push o'] })
  })

  it('allows a line of an allow list only when one allow rule matches every command', async () => {
    const { bash } = await guarded({ default: 'deny', rules: [shell('allow', 'ls{, *}'), shell('allow', 'git {status,diff}{, *}'), shell('allow', '{ls,git status}{, *}')] })
    expect(await bash('ls; rm x')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('ls -la && git status')).toMatchObject({ outcome: 'ok' })
    expect(await bash('git diff | ls')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('ls && git push')).toMatchObject({ outcome: TOOL_DENIED })
  })

  it('still applies the line-wide facts to every command: output redirection, unknown names, assignments', async () => {
    const { bash } = await guarded({ default: 'deny', rules: [shell('allow', '{ls,git}{, *}')] })
    expect(await bash('git log > ~/.bashrc; ls')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('ls; "$GIT" status')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('ls; GIT_EXTERNAL_DIFF=x git diff')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('GIT_EXTERNAL_DIFF=x git diff')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('git log ../x; ls')).toMatchObject({ outcome: TOOL_DENIED })
    expect(await bash('git log; ls')).toMatchObject({ outcome: 'ok' })
    // An unknown name matches every deny and ask rule, in every command's evaluation.
    const restrictive = await guarded({ rules: [shell('ask', 'git push *'), shell('deny', 'rm *')] })
    const unknown = await restrictive.bash('git push x; $CMD y')
    expect(unknown).toMatchObject({ outcome: TOOL_DENIED, asked: [] })
    expect(unknown.message).toBe('tool "bash" is denied by rules[1] (tool "bash", command shell "rm *"): "$CMD y" names its command only at run time, so it counts as matching')
  })
})

describe('per-command evaluation in the policy', () => {
  it('gives a line of one command, an unreadable line and a call without shell matchers the whole-call verdict', () => {
    const decide = policy({ rules: [shell('deny', 'git *'), shell('ask', 'git push *'), { tool: 'bash', action: 'deny', when: { command: 'x *' } }] })
    expect(decide('bash', { command: 'git push o' })).toMatchObject({ action: 'ask', rule: 1 })
    expect(decide('bash', { command: 'git push "o' })).toMatchObject({ action: 'ask', rule: 1 })
    expect(decide('bash', { command: 'x ; rm y' })).toMatchObject({ action: 'deny', rule: 2 })
    expect(decide('read_file', { command: 'git push o; git status' })).toEqual({ action: 'allow' })
  })

  it('takes the most severe command verdict and keeps its rule and reason', () => {
    const decide = policy({ default: 'ask', rules: [shell('allow', 'ls{, *}'), shell('deny', 'rm *'), shell('ask', 'git push *')] })
    expect(decide('bash', { command: 'ls; git push o' })).toMatchObject({ action: 'ask', rule: 2 })
    expect(decide('bash', { command: 'ls; curl x' })).toEqual({ action: 'ask', reason: 'no rule matches tool "bash" and the default is ask' })
    expect(decide('bash', { command: 'git push o; rm x; curl y' })).toMatchObject({ action: 'deny', rule: 1 })
    expect(decide('bash', { command: 'ls; ls -la' })).toEqual({ action: 'allow', rule: 0 })
  })

  it('focuses only the argument a command is in; other matchers test their argument as usual', () => {
    const decide = policy({
      rules: [
        { tool: 'bash', action: 'deny', when: { command: { shell: 'rm *' } } },
        { tool: 'bash', action: 'ask', when: { command: { shell: 'git push *' }, cwd: '/repo*' } },
      ],
    })
    expect(decide('bash', { command: 'git push o; rm x', cwd: '/repo/a' })).toMatchObject({ action: 'deny', rule: 0 })
    expect(decide('bash', { command: 'git push o; ls', cwd: '/repo/a' })).toMatchObject({ action: 'ask', rule: 1 })
    expect(decide('bash', { command: 'git push o; ls', cwd: '/tmp' })).toEqual({ action: 'allow' })
  })

  it('evaluates a line of hundreds of commands, and fails closed on one too large to read', () => {
    const decide = policy({ default: 'deny', rules: [shell('allow', '{ls,pwd}{, *}'), shell('deny', 'rm *')] })
    expect(decide('bash', { command: 'ls -la; pwd\n'.repeat(150) })).toEqual({ action: 'allow', rule: 0 })
    expect(decide('bash', { command: `${'ls -la; pwd\n'.repeat(150)}rm x` })).toMatchObject({ action: 'deny', rule: 1 })
    expect(decide('bash', { command: 'ls -la; pwd\n'.repeat(1000) })).toMatchObject({ action: 'deny', rule: 1 })
  })
})
