/**
 * `rein hook claude-code --resident` (`src/hook/resident.ts`): a resident process answers once
 * it runs, never from a stale policy (rein.yaml or a module it loaded edited), and one serves
 * each config file and working directory.
 */
import { existsSync, realpathSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { socketPath } from '../../src/hook/resident.js'
import { project, requireBuild } from '../helpers.js'
import { decisionOf, hook, input, POLICY, withPlugin } from './run.js'

beforeAll(requireBuild)

/** Resolves once `check()` holds, looking every 50 ms. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!await check()) await new Promise((resolve) => setTimeout(resolve, 50))
}

/** A plugin module that counts its loads in loads.txt and answers `git status` with `verdict` (else passes it on). */
const guard = (verdict: string) => `import { appendFileSync } from 'node:fs'
export const name = 'guard'
export const inject = ['tools']
export function apply(ctx) {
  appendFileSync(new URL('./loads.txt', import.meta.url), 'load\\n')
  ctx.on('tools/pre-execute', async (exec, next) => exec.arguments.command === 'git status' ? ${verdict} : next())
}
`

describe('rein hook claude-code --resident', { timeout: 180_000 }, () => {
  async function withResident(files: Record<string, string>) {
    const dir = await project(files)
    const loads = async () => existsSync(join(dir, 'loads.txt')) ? (await readFile(join(dir, 'loads.txt'), 'utf8')).split('\n').filter(Boolean).length : 0
    const call = () => hook(dir, input(dir, 'Bash', { command: 'git status' }), ['--resident'])
    const socket = socketPath(join(dir, 'rein.yaml'), realpathSync(dir))!
    return { dir, loads, call, socket }
  }

  it('answers from a resident process that loaded the harness once, and an edit of rein.yaml applies at once', async () => {
    const { dir, loads, call, socket } = await withResident({ 'rein.yaml': withPlugin('guard.mjs'), 'guard.mjs': guard('next()') })
    const first = await call()
    expect([first.code, decisionOf(first).permissionDecision]).toEqual([0, 'allow'])
    // The first call is answered in its own process and starts the resident one.
    await until(() => existsSync(socket))
    expect(await loads()).toBe(2)
    for (let i = 0; i < 2; i++) {
      const run = await call()
      expect([run.code, decisionOf(run).permissionDecision, run.stderr]).toEqual([0, 'allow', ''])
    }
    expect(await loads()).toBe(2)
    await writeFile(join(dir, 'rein.yaml'), withPlugin('guard.mjs', POLICY.replace("{ tool: Bash, action: allow, when: { command: { shell: 'git status' } } }", "{ tool: Bash, action: deny, when: { command: { shell: 'git *' } }, reason: no git today }")))
    const edited = await call()
    expect([edited.code, edited.stderr.trim()]).toEqual([2, 'no git today'])
  })

  it('an edit of a plugin module the config loads applies at once, and the next resident loads the new one', async () => {
    const { dir, loads, call, socket } = await withResident({ 'rein.yaml': withPlugin('guard.mjs'), 'guard.mjs': guard('next()') })
    await call()
    await until(() => existsSync(socket))
    expect((await call()).code).toBe(0)
    expect(await loads()).toBe(2)
    await writeFile(join(dir, 'guard.mjs'), guard("{ kind: 'deny', reason: 'the guard says no' }"))
    // The resident refuses to answer from what it loaded: the call is answered in process, and a new resident starts.
    const edited = await call()
    expect([edited.code, edited.stdout, edited.stderr.trim()]).toEqual([2, '', 'the guard says no'])
    await until(async () => await loads() === 4 && existsSync(socket))
    const next = await call()
    expect([next.code, next.stderr.trim()]).toEqual([2, 'the guard says no'])
    expect(await loads()).toBe(4)
  })

  it('an edit of a file the plugin module imports in turn applies at once', async () => {
    const importer = `import { verdict } from './rules/verdict.mjs'\n${guard('verdict()')}`
    const { dir, loads, call, socket } = await withResident({
      'rein.yaml': withPlugin('guard.mjs'), 'guard.mjs': importer, 'rules/verdict.mjs': 'export const verdict = () => ({ kind: \'allow\' })\n',
    })
    await call()
    await until(() => existsSync(socket))
    expect(decisionOf(await call()).permissionDecision).toBe('allow')
    expect(await loads()).toBe(2)
    await writeFile(join(dir, 'rules', 'verdict.mjs'), "export const verdict = () => ({ kind: 'deny', reason: 'the rules say no' })\n")
    const edited = await call()
    expect([edited.code, edited.stdout, edited.stderr.trim()]).toEqual([2, '', 'the rules say no'])
  })

  it('one resident per working directory: ./x rules are read from each call\'s cwd', async () => {
    const dir = await project({
      'rein.yaml': "plugins:\n  - use: '@rein/plugin-permission-guard'\n    config:\n      default: ask\n      permissions: { allow: ['Edit(./src/**)'] }\n",
      'proj/src/a.ts': '',
    })
    const config = join(dir, 'rein.yaml')
    // Every process starts in `dir`; only the input's cwd differs.
    const edit = (cwd: string) => hook(dir, input(cwd, 'Edit', { file_path: join(dir, 'src', 'x.ts'), old_string: 'a', new_string: 'b' }), ['--resident', '-c', config])
    const verdicts = async () => [decisionOf(await edit(dir)).permissionDecision, decisionOf(await edit(join(dir, 'proj'))).permissionDecision]
    expect(await verdicts()).toEqual(['allow', 'ask'])
    const sockets = [socketPath(config, realpathSync(dir))!, socketPath(config, realpathSync(join(dir, 'proj')))!]
    expect(sockets[0]).not.toBe(sockets[1])
    await until(() => sockets.every((socket) => existsSync(socket)))
    expect(await verdicts()).toEqual(['allow', 'ask'])
  })
})
