/**
 * `rein hook claude-code` judges a call from the hook input's `cwd` (`src/hook/working-dir.ts`),
 * wherever its process was started, while paths written in rein.yaml stay read from the config
 * file's folder; and the most severe verdict of a path's two spellings wins.
 */
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { project, requireBuild } from '../helpers.js'
import { decisionOf, expectFailedClosed, hook, input } from './run.js'

beforeAll(requireBuild)

describe('rein hook claude-code: the input\'s cwd', { timeout: 120_000 }, () => {
  it('./x and //abs permission rules are read from the input\'s cwd, wherever the process started', async () => {
    const dir = await project({ 'proj/src/a.ts': '', 'proj/secrets/a': '' })
    const proj = join(dir, 'proj')
    const config = join(dir, 'conf', 'rein.yaml')
    await mkdir(join(dir, 'conf'))
    await writeFile(config, `
plugins:
  - use: '@rein/plugin-audit'
    config: { file: ./audit.jsonl }
  - use: '@rein/plugin-permission-guard'
    config:
      default: ask
      permissions:
        ask: ['Read(/${proj}/secrets/**)']
        allow: ['Read', 'Edit(./src/**)']
`)
    const edit = (file_path: string) => ({ file_path, old_string: 'a', new_string: 'b' })
    for (const processCwd of [proj, dir]) {
      const verdict = async (tool: string, args: unknown) => decisionOf(await hook(processCwd, input(proj, tool, args), ['-c', config])).permissionDecision
      expect({
        secret: await verdict('Read', { file_path: join(proj, 'secrets', 'a') }),
        outside: await verdict('Edit', edit(join(dir, 'src', 'x'))),
        inside: await verdict('Edit', edit(join(proj, 'src', 'x'))),
      }).toEqual({ secret: 'ask', outside: 'ask', inside: 'allow' })
    }
    // The audit file written ./audit.jsonl in rein.yaml stays beside it.
    const post = await hook(dir, input(proj, 'Read', { file_path: join(proj, 'src', 'a.ts') }, { hook_event_name: 'PostToolUse', tool_response: 'ok' }), ['-c', config])
    expect(post.code).toBe(0)
    expect([existsSync(join(dir, 'conf', 'audit.jsonl')), existsSync(join(proj, 'audit.jsonl'))]).toEqual([true, false])
  })

  it.each([[[]], [['--resident']]])('a cwd that is not a folder is refused (%j)', async (args) => {
    const dir = await project({ 'rein.yaml': "plugins:\n  - use: '@rein/plugin-permission-guard'\n    config: { default: allow }\n" })
    const run = await hook(dir, input(join(dir, 'gone'), 'Bash', { command: 'ls' }), args)
    expectFailedClosed(run)
    expect(run.stderr).toContain(`cwd "${join(dir, 'gone')}" is not a folder rein can enter`)
  })
})

describe('rein hook claude-code: both spellings of a path', { timeout: 120_000 }, () => {
  it('an ask of the absolute spelling holds against an allow of the ./x spelling', async () => {
    const dir = await project()
    await writeFile(join(dir, 'rein.yaml'), `
plugins:
  - use: '@rein/plugin-permission-guard'
    config:
      default: ask
      permissions: { allow: ['Read'] }
      rules:
        - { tool: Read, action: ask, when: { file_path: '${dir}/secrets/**' }, reason: secrets need a yes }
`)
    const run = await hook(dir, input(dir, 'Read', { file_path: join(dir, 'secrets', 'a') }))
    expect([run.code, decisionOf(run)]).toEqual([0, expect.objectContaining({ permissionDecision: 'ask', permissionDecisionReason: 'secrets need a yes' })])
  })
})
