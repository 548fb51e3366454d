/**
 * End to end with the standard packages, resolved the way a user's config resolves them:
 * every standard plugin, both tool sources and a local TypeScript policy, loaded from one
 * rein.yaml and driven by a scripted model through the real agent loop.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { scripted, toolCall, callMessage, textMessage, validateTranscript } from '@rein/testing'
import type { ToolMessage } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { checkExamples, describeChains, formatChains, loadHarness } from '../src/index.js'
import { STANDARD_PACKAGES } from '../src/standard.js'
import { project } from './helpers.js'

const REIN_YAML = `
plugins:
  - use: "@rein/plugin-audit"              # outermost
    config: { file: ./audit.jsonl }
  - use: "@rein/plugin-permission-guard"
    config:
      rules:
        - { tool: bash, action: deny, reason: no shell in this harness }
  - use: "@rein/plugin-cache"
  - use: "@rein/plugin-retry"
    config: { maxAttempts: 2 }
  - use: "@rein/plugin-timeout-policy"
    config: { defaultMs: 10000 }
  - use: "@rein/plugin-spill"
    config: { maxInlineBytes: 2000, store: local, dir: ./spill }
  - use: ./policies/no-secrets.ts
tools:
  - use: "@rein/tools-fs"
    config: { root: ./workspace }
  - use: "@rein/tools-shell"
    config: { root: ./workspace }
agent: { maxTurns: 4, maxParallelToolCalls: 4 }
session: ./runs/session.jsonl
examples: [./few-shot.yaml]
`

const POLICY = `
/** Denies reading any file whose path mentions "secret". */
interface Exec { name: string, arguments: Readonly<Record<string, unknown>> }
type Decision = { kind: 'allow' } | { kind: 'deny', reason: string }
export const name = 'no-secrets'
export const inject = ['tools']
export function apply(ctx: any): void {
  ctx.on('tools/pre-execute', async (exec: Exec, next: () => Promise<Decision>): Promise<Decision> =>
    String(exec.arguments.path ?? '').includes('secret') ? { kind: 'deny', reason: 'secrets stay secret' } : next())
}
`

const FEW_SHOT = `
- tool: read_file
  arguments: { path: notes.txt }
- tool: grep
  arguments: { pattern: milk }
`

describe('a harness of the standard packages', () => {
  it('loads every standard plugin in file order and runs a scripted task end to end', async () => {
    const dir = await project({
      'rein.yaml': REIN_YAML,
      'policies/no-secrets.ts': POLICY,
      'few-shot.yaml': FEW_SHOT,
      'workspace/notes.txt': 'remember the milk\n',
      'workspace/secret.txt': 'hunter2\n',
      'workspace/big.txt': 'x'.repeat(10_000),
    })
    const provider = scripted([
      callMessage([
        toolCall('c1', 'read_file', { path: 'notes.txt' }),
        toolCall('c2', 'read_file', { path: 'secret.txt' }),
        toolCall('c3', 'bash', { command: 'echo hi' }),
        toolCall('c4', 'read_file', { path: 'big.txt' }),
      ]),
      textMessage('All done.'),
    ])
    const harness = await loadHarness(join(dir, 'rein.yaml'), { provider })

    expect(formatChains(describeChains(harness.ctx)).split('\n')).toEqual([
      'tools/pre-execute   permission-guard > no-secrets > (default: allow)',
      'guards              permission-guard > (all must pass)',
      'tools/execute       cache > retry > timeout-policy > (tool body)',
      'tools/post-execute  spill > (default: accept)',
      'tools/result        audit > (observers, in order)',
      'tools/hand-off      audit > (all settled, then the caller)',
    ])

    const outcome = await harness.agent.run('read my notes')
    expect(outcome.kind).toBe('completed')
    expect(validateTranscript(outcome.messages)).toEqual([])
    const results = new Map(outcome.messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => [m.toolCallId, m]))
    const text = (id: string) => results.get(id)!.content.map((b) => b.type === 'text' ? b.text : '').join('')
    expect(results.get('c1')?.isError).toBe(false)
    expect(text('c1')).toContain('remember the milk')
    expect(text('c2')).toBe('Error: secrets stay secret')
    expect(text('c3')).toBe('Error: no shell in this harness')
    expect(text('c4')).toContain('read_spilled')

    const report = await checkExamples(harness)
    expect(report).toEqual({ checked: 2, inline: 0, problems: [] })
    expect(provider.requests[0].messages[0]).toEqual({ role: 'system', content: [
      '## Tool call examples',
      'One call per line: the tool name, then its arguments as JSON.',
      'Calls indented under "In one message:" are made together in one reply; "<id>:" names a call that others may reference.',
      'read_file {"path":"notes.txt"}',
      'grep {"pattern":"milk"}',
    ].join('\n') })

    await harness.dispose()
    const audit = (await readFile(join(dir, 'audit.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
    expect(audit.map((r: { id: string }) => r.id).sort()).toEqual(['c1', 'c2', 'c3', 'c4'])
    const session = (await readFile(join(dir, 'runs/session.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
    expect(session.filter((e: { type: string }) => e.type === 'tool/result')).toHaveLength(4)
  })
})

describe('the standard package names', () => {
  it('are every package the loader depends on that a use: may name', async () => {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }
    const libraries = ['@rein/kernel', '@rein/agent', '@rein/retention', '@rein/redact', '@rein/isolate']
    const usable = Object.keys(manifest.dependencies).filter((name) => name.startsWith('@rein/') && !libraries.includes(name))
    expect([...STANDARD_PACKAGES].sort()).toEqual(usable.sort())
  })
})
