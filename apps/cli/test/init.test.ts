/**
 * `rein init`: the starter's files, its package.json, the refusal to overwrite, and the
 * starter itself loading, chaining and running (offline) inside this workspace. The same
 * starter is installed from packed tarballs outside the workspace by examples/outside.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { STARTER_DEV_TOOLS, packageName } from '../src/init/manifest.js'
import { CLI_ROOT, project, rein } from './helpers.js'

const REPO = join(CLI_ROOT, '..', '..')
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

const FILES = [
  '.gitignore', 'README.md', 'few-shot.yaml', 'package.json', 'policies/no-friday-deploys.ts', 'provider.ts',
  'rein.yaml', 'test/no-friday-deploys.test.ts', 'tsconfig.json',
]

describe('rein init', () => {
  it('writes the starter into a new folder and says what to run next', async () => {
    const dir = await project()
    const { code, stdout, stderr } = await rein(['init', 'My Agent'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(ExitCodes.OK)
    for (const file of FILES) expect(existsSync(join(dir, 'My Agent', file)), file).toBe(true)
    expect(stdout).toContain(`wrote a rein starter in My Agent: ${FILES.join(', ')}`)
    expect(stdout).toContain("next:\n  cd 'My Agent'\n  npm install\n  npx rein check\n")
  })

  it('writes a package.json with the scripts, rein at this version and the one cordis rein uses', async () => {
    const dir = await project()
    await rein(['init'], dir)
    const manifest = await readJson(join(dir, 'package.json'))
    const cli = await readJson(join(CLI_ROOT, 'package.json'))
    expect(Object.keys(manifest.scripts)).toEqual(['check', 'chains', 'test', 'typecheck', 'run'])
    expect(manifest.dependencies).toEqual({
      '@rein/cli': `^${cli.version}`, '@rein/kernel': `^${cli.version}`, '@rein/provider-openai': `^${cli.version}`,
      '@rein/testing': `^${cli.version}`, cordis: cli.dependencies.cordis,
    })
    expect(manifest.name).toBe(packageName(dir.split('/').at(-1)!))
  })

  it('gives the starter the dev tools this workspace uses', async () => {
    const root = await readJson(join(REPO, 'package.json'))
    const loader = await readJson(join(REPO, 'packages', 'loader', 'package.json'))
    expect(STARTER_DEV_TOOLS).toEqual({
      '@types/node': root.devDependencies['@types/node'], tsx: `^${loader.dependencies.tsx}`, typescript: `^${root.devDependencies.typescript}`,
    })
  })

  it('refuses to overwrite: names every file that exists, writes nothing, exits 1', async () => {
    const dir = await project({ 'rein.yaml': 'plugins: []\n', 'policies/no-friday-deploys.ts': '// mine\n' })
    const { code, stdout, stderr } = await rein(['init'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stdout).toBe('')
    expect(stderr).toContain('rein init: . already has policies/no-friday-deploys.ts, rein.yaml; nothing was written.')
    expect(existsSync(join(dir, 'package.json'))).toBe(false)
    expect(await readFile(join(dir, 'rein.yaml'), 'utf8')).toBe('plugins: []\n')
  })

  it('counts a dangling symlink as taken, so nothing is written half-way', async () => {
    const dir = await project()
    await symlink(join(dir, 'nowhere.yaml'), join(dir, 'rein.yaml'))
    const { code, stderr } = await rein(['init'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toContain('rein init: . already has rein.yaml; nothing was written.')
    expect((await readdir(dir)).sort()).toEqual(['rein.yaml'])
  })

  it('lists the standard plugins in the recommended order (examples/standard-stack), with the policy before spill', async () => {
    const dir = await project()
    await rein(['init'], dir)
    const text = await readFile(join(dir, 'rein.yaml'), 'utf8')
    const uses = [...text.matchAll(/^ {2}- use: '?([^'\s]+)'?/gm)].map((m) => m[1]!.replace('@rein/plugin-', ''))
    expect(uses).toEqual([
      'audit', 'cache', 'retry', 'timeout-policy', 'permission-guard', './policies/no-friday-deploys.ts', 'spill',
      '@rein/tools-fs', '@rein/tools-shell',
    ])
  })
})

describe('the starter, inside this workspace', async () => {
  // Under .rein/ (ignored by git) in this package, so that its imports resolve from here.
  await mkdir(join(CLI_ROOT, '.rein'), { recursive: true })
  const dir = await mkdtemp(join(CLI_ROOT, '.rein', 'starter-'))
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const ready = rein(['init'], dir)

  it('passes rein check and rein chains with no edits and no key', async () => {
    expect((await ready).code).toBe(ExitCodes.OK)
    const check = await rein(['check'], dir, {})
    expect(check.stderr).toBe('')
    expect(check.stdout).toContain('a provider, 7 plugin(s), 2 tool source(s)')
    expect(check.stdout).toContain('3 example tool call(s) in 1 file(s) match')
    const chains = await rein(['chains'], dir, {})
    expect(chains.stdout).toContain('tools/pre-execute   permission-guard > no-friday-deploys > (default: allow)')
  })

  it('runs the offline model through every plugin when no key is set', async () => {
    await ready
    await writeFile(join(dir, 'notes.txt'), 'hello\n')
    // The starter's provider.ts reads the key from process.env: take it away for this run.
    const key = process.env.DEEPSEEK_API_KEY
    delete process.env.DEEPSEEK_API_KEY
    const { code, stdout } = await rein(['run', 'tidy up'], dir, {}).finally(() => {
      if (key !== undefined) process.env.DEEPSEEK_API_KEY = key
    })
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toMatch(/^model: DEEPSEEK_API_KEY is not set, so this is the offline model/m)
    expect(stdout).toMatch(/✓ o1 list_dir ok/)
    expect(stdout).toMatch(/✓ o2 read_file ok/)
    expect(stdout).toContain('The offline model cannot do "tidy up"')
  })
})
