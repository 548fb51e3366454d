/**
 * Driving `rein hook claude-code` as Claude Code does: a real `rein` process per call with the
 * hook's JSON on stdin, its exit code, stdout and stderr collected. Shared by the hook's tests.
 */
import { spawn } from 'node:child_process'
import { expect } from 'vitest'
import { BIN } from '../helpers.js'

/** What one hook process did. */
export interface HookRun { code: number, stdout: string, stderr: string }

/** A policy in front of Bash and Read, with an audit file beside rein.yaml. */
export const POLICY = `
plugins:
  - use: '@rein/plugin-audit'
    config: { file: ./audit.jsonl }
  - use: '@rein/plugin-permission-guard'
    config:
      default: ask
      rules:
        - { tool: Bash, action: allow, when: { command: { shell: 'git status' } } }
        - { tool: Bash, action: allow, when: { command: { shell: 'npm run test*' } } }
        - { tool: Bash, action: deny, when: { command: { shell: 'rm *' } }, reason: rm is never run here }
        - { tool: Read, action: allow, when: { file_path: './src/**' } }
        - { tool: Read, action: deny, when: { file_path: './.env' }, reason: secrets stay unread }
        - { tool: Read, action: deny, when: { file_path: '/etc/shadow' }, reason: not the shadow file }
        - { tool: github__delete_repo, action: deny, reason: repositories are never deleted }
`

/** `yaml` with the local plugin file `file` listed first. */
export const withPlugin = (file: string, yaml = POLICY) => yaml.replace('plugins:\n', `plugins:\n  - use: ./${file}\n`)

/** Runs `rein hook claude-code <args>` with `cwd` as the process's working directory and `stdin` written to it. */
export function hook(cwd: string, stdin: string | Buffer, args: string[] = []): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-code', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    child.stdin.on('error', () => {}) // the hook may stop reading early (a 10 MB input)
    child.stdin.end(stdin)
  })
}

/** A PreToolUse (or other) hook input as Claude Code writes it. */
export function input(cwd: string, tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 'toolu_1', cwd, ...extra })
}

/** The `hookSpecificOutput` of an exit-0 answer. */
export const decisionOf = (run: HookRun) => JSON.parse(run.stdout).hookSpecificOutput

/** Asserts a refusal by rein itself: exit 2, nothing on stdout, a `rein hook:` line and no stack trace. */
export function expectFailedClosed(run: HookRun): void {
  expect([run.code, run.stdout]).toEqual([2, ''])
  expect(run.stderr).not.toMatch(/\n\s+at /)
  expect(run.stderr).toMatch(/^rein hook: /m)
}
