/**
 * rein as a stranger gets it: every package packed (`scripts/pack-all.mjs`, build first) and
 * installed with plain npm into a project in the system temp folder, far from this
 * workspace, then used as the READMEs say: `npx rein demo` (and the follow-up command it
 * prints, as printed), `npx rein init`, and in the starter `npx rein check`, `npx rein
 * chains`, its test, its type check and an offline run. The installs must hold exactly one
 * cordis. Two npm installs: about a minute with a warm npm cache. REIN_SKIP_OUTSIDE=1 skips it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copiesOf, megabytes, REPO, run, sizeOf, type Ran } from './helpers.js'

const MINUTES = 60_000
/** The packages only the fleet commands load; @rein/cli names @rein/queue as an optional peer. */
const FLEET = ['@rein/queue', '@rein/session-postgres']
const measured: string[] = []

function ok(ran: Ran, what: string): Ran {
  expect(ran.code, `${what} exited ${ran.code}\nstdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`).toBe(0)
  return ran
}

describe.skipIf(process.env.REIN_SKIP_OUTSIDE)('rein installed from its tarballs, outside the workspace', () => {
  let root = ''
  let app = ''
  let starter = ''
  let tarballs: { name: string, file: string, bytes: number }[] = []
  const install = (cwd: string, leaveOut: readonly string[] = []) => run(`npm install --no-audit --no-fund --prefer-offline ${
    tarballs.filter((t) => !leaveOut.includes(t.name)).map((t) => JSON.stringify(t.file)).join(' ')}`, cwd)

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'rein-outside-'))
    app = join(root, 'app')
    starter = join(root, 'starter')
    const packed = ok(await run(`node ${JSON.stringify(join(REPO, 'scripts', 'pack-all.mjs'))} ${JSON.stringify(join(root, 'tarballs'))} --build`, REPO), 'pack-all')
    tarballs = (JSON.parse(packed.stdout) as { tarballs: typeof tarballs }).tarballs
    measured.push(`packed ${tarballs.length} packages in ${(packed.ms / 1000).toFixed(1)}s: ${(tarballs.reduce((n, t) => n + t.bytes, 0) / 1000).toFixed(0)} kB of tarballs`)
    await mkdir(app)
    await writeFile(join(app, 'package.json'), '{ "name": "outside-app", "private": true, "type": "module" }\n')
    // The app has what a plain `npm i @rein/cli` gives: everything but the fleet's packages.
    const installed = ok(await install(app, FLEET), 'npm install in the app')
    measured.push(`npm install (app): ${(installed.ms / 1000).toFixed(1)}s, node_modules ${megabytes(sizeOf(join(app, 'node_modules')))}`)
  }, 10 * MINUTES)

  afterAll(async () => {
    if (measured.length) console.log(`outside the workspace:\n  ${measured.join('\n  ')}`)
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('holds exactly one cordis, the one every rein package names as its peer', () => {
    expect(copiesOf(join(app, 'node_modules'), 'cordis')).toEqual([join(app, 'node_modules', 'cordis')])
  })

  it('leaves the fleet out of a plain install, and its commands say what to install', async () => {
    for (const name of ['bullmq', 'ioredis', 'pg', '@rein/queue']) expect(copiesOf(join(app, 'node_modules'), name), name).toEqual([])
    const worker = await run('npx rein worker --redis redis://127.0.0.1:1 --postgres postgres://u@127.0.0.1:1/db', app)
    expect(worker.code).toBe(1)
    expect(worker.stderr).toMatch(/^rein worker: the fleet commands \(worker, submit, cancel, db\) need @rein\/queue, which a plain install of @rein\/cli leaves out \(it brings the Redis and PostgreSQL clients\): npm install @rein\/queue@\d+\.\d+\.\d+\n$/)
  })

  it('answers npx rein --version and -V', async () => {
    const version = ok(await run('npx rein --version', app), 'rein --version').stdout
    expect(version).toMatch(/^rein \d+\.\d+\.\d+\n$/)
    expect(ok(await run('npx rein -V', app), 'rein -V').stdout).toBe(version)
  })

  it('runs npx rein demo, and the follow-up command it prints works as printed', async () => {
    const demo = ok(await run('npx rein demo', app), 'rein demo')
    measured.push(`npx rein demo: ${(demo.ms / 1000).toFixed(1)}s`)
    expect(demo.stdout).toMatch(/calls {8}12 \(10 ok, 1 TOOL_DENIED, 1 TOOL_TIMEOUT\)/)
    const followUp = /\(draw it: (npx rein trace \S+)\)/.exec(demo.stdout)?.[1]
    expect(followUp).toBe('npx rein trace .rein/demo-session.jsonl')
    ok(await run(followUp!, app), followUp!)
    expect(existsSync(join(app, '.rein', 'demo-session.html'))).toBe(true)
  }, 2 * MINUTES)

  it('writes a starter with npx rein init, and will not overwrite it', async () => {
    const init = ok(await run('npx rein init ../starter', app), 'rein init')
    expect(init.stdout).toContain('next:\n  cd ../starter\n  npm install\n')
    const again = await run('npx rein init ../starter', app)
    expect(again.code).toBe(1)
    // The starter now has a package.json, so the second init takes it as an existing project.
    expect(again.stderr).toContain('already has few-shot.yaml, policies/no-friday-deploys.ts, provider.ts, rein.yaml, test/no-friday-deploys.test.ts')
  })

  describe('the starter, after npm install and no edits', () => {
    beforeAll(async () => {
      const installed = ok(await install(starter), 'npm install in the starter')
      measured.push(`npm install (starter): ${(installed.ms / 1000).toFixed(1)}s, node_modules ${megabytes(sizeOf(join(starter, 'node_modules')))}`)
    }, 10 * MINUTES)

    it('passes npx rein check, also as JSON, with no key set', async () => {
      expect(ok(await run('npx rein check', starter), 'rein check').stdout).toContain('a provider, 7 plugin(s), 2 tool source(s)')
      const json = JSON.parse(ok(await run('npx rein check --json', starter), 'rein check --json').stdout)
      expect(json).toMatchObject({ ok: true, plugins: 7, problems: [] })
    }, 2 * MINUTES)

    it('shows its own policy in npx rein chains', async () => {
      expect(ok(await run('npx rein chains', starter), 'rein chains').stdout)
        .toContain('tools/pre-execute   permission-guard > no-friday-deploys > (default: allow)')
    })

    it('passes its own test and type check', async () => {
      expect(ok(await run('npm test', starter), 'npm test').stdout).toMatch(/# pass 4\n# fail 0/)
      ok(await run('npm run typecheck', starter), 'npm run typecheck')
    }, 2 * MINUTES)

    it('runs the offline model through every plugin with npm run run', async () => {
      const ran = ok(await run('npm run run -- "list the files"', starter), 'npm run run')
      expect(ran.stdout).toContain('model: DEEPSEEK_API_KEY is not set')
      expect(ran.stdout).toContain('The offline model cannot do "list the files"')
      expect(await readFile(join(starter, '.rein', 'audit.jsonl'), 'utf8')).toContain('list_dir')
      expect(copiesOf(join(starter, 'node_modules'), 'cordis')).toHaveLength(1)
    })
  })
})
