/**
 * `rein init` in an existing project (a folder with a package.json): the rein files go next to
 * what is there, nothing of the project's is overwritten or rewritten, the package.json
 * additions are printed (or written with --write-package-json, in the file's own format), and
 * a symbolic link planted inside the folder is never written through.
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { cliVersions } from '../src/init/manifest.js'
import { withAdditions } from '../src/init/package-additions.js'
import { project, rein } from './helpers.js'

const APP_MANIFEST = '{\n    "name": "my-app",\n    "scripts": {\n        "test": "vitest",\n        "build": "tsc"\n    },\n    "version": "1.2.0",\n' +
  '    "dependencies": {\n        "cordis": "3.18.0",\n        "express": "^4.21.0"\n    }\n}\n'
const APP = {
  'package.json': APP_MANIFEST,
  'README.md': '# my app\n',
  '.gitignore': 'node_modules\n',
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  'src/server.js': 'export {}\n',
}
const REIN_FILES = ['few-shot.yaml', 'policies/no-friday-deploys.ts', 'provider.ts', 'rein.yaml', 'test/no-friday-deploys.test.ts']

describe('rein init in an existing project', () => {
  it('writes the rein files next to the project, keeps every file of it as it was, and prints what package.json needs', async () => {
    const dir = await project(APP)
    const { code, stdout, stderr } = await rein(['init'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(ExitCodes.OK)
    for (const [path, content] of Object.entries(APP)) expect(await readFile(join(dir, path), 'utf8'), path).toBe(content)
    for (const file of REIN_FILES) expect(existsSync(join(dir, file)), file).toBe(true)
    expect(stdout).toContain(`added rein to the project in .: ${REIN_FILES.join(', ')}\n`)
    expect(stdout).toContain('kept yours: .gitignore, tsconfig.json\n')
    expect(stdout).toContain('add .rein/ to your .gitignore')
    const { rein: version } = cliVersions()
    expect(stdout).toContain('add to package.json (or run rein init --write-package-json to add them):\n' +
      '  "scripts": { "rein:check": "rein check", "rein:chains": "rein chains", "rein:test": "tsx --test test/no-friday-deploys.test.ts" }\n' +
      `  "dependencies": { "@rein/cli": "^${version}", "@rein/kernel": "^${version}", "@rein/provider-openai": "^${version}", "@rein/testing": "^${version}" }\n`)
    expect(stdout).not.toMatch(/"dependencies": \{[^}]*cordis/)
    expect(stdout).toContain('  npm run rein:test\n')
  })

  it('loads as written: rein check passes in the project with no edits', async () => {
    const dir = await project(APP)
    expect((await rein(['init'], dir)).code).toBe(ExitCodes.OK)
    const check = await rein(['check'], dir)
    expect(check.stderr).toBe('')
    expect(check.code).toBe(ExitCodes.OK)
  }, 60_000)

  it('with --write-package-json, adds only what is missing, keeping indentation, key order and the final newline', async () => {
    const dir = await project(APP)
    const { code, stdout } = await rein(['init', '--write-package-json'], dir)
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('added to package.json:\n  "scripts": {')
    const text = await readFile(join(dir, 'package.json'), 'utf8')
    const { rein: version } = cliVersions()
    expect(text).toBe('{\n    "name": "my-app",\n    "scripts": {\n        "test": "vitest",\n        "build": "tsc",\n' +
      '        "rein:check": "rein check",\n        "rein:chains": "rein chains",\n        "rein:test": "tsx --test test/no-friday-deploys.test.ts"\n    },\n' +
      '    "version": "1.2.0",\n    "dependencies": {\n        "cordis": "3.18.0",\n        "express": "^4.21.0",\n' +
      `        "@rein/cli": "^${version}",\n        "@rein/kernel": "^${version}",\n        "@rein/provider-openai": "^${version}",\n        "@rein/testing": "^${version}"\n    },\n` +
      '    "devDependencies": {\n        "@types/node": "^20.19.0",\n        "tsx": "^4.23.15",\n        "typescript": "^5.9.3"\n    }\n}\n')
  })

  it('keeps tabs, CRLF line endings and a missing final newline', () => {
    const text = '{\r\n\t"name": "x",\r\n\t"scripts": {}\r\n}'
    expect(withAdditions(text, { scripts: { a: 'b' }, dependencies: {}, devDependencies: {} }))
      .toBe('{\r\n\t"name": "x",\r\n\t"scripts": {\r\n\t\t"a": "b"\r\n\t}\r\n}')
  })

  it('refuses a folder it would write into that is a symbolic link, and writes nothing anywhere', async () => {
    const elsewhere = await project()
    const dir = await project(APP)
    await symlink(elsewhere, join(dir, 'policies'))
    await mkdir(join(dir, 'test'))
    const { code, stdout, stderr } = await rein(['init', '--write-package-json'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stdout).toBe('')
    expect(stderr).toContain('rein init: policies is a symbolic link; rein init writes only into real folders inside the target, so nothing was written.')
    expect(await readdir(elsewhere)).toEqual([])
    expect(await readdir(join(dir, 'test'))).toEqual([])
    expect(existsSync(join(dir, 'rein.yaml'))).toBe(false)
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe(APP_MANIFEST)
  })

  it('does not write a package.json that is a symbolic link, and prints the additions instead', async () => {
    const elsewhere = await project({ 'package.json': APP_MANIFEST })
    const dir = await project()
    await symlink(join(elsewhere, 'package.json'), join(dir, 'package.json'))
    const { code, stdout } = await rein(['init', '--write-package-json'], dir)
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('package.json is a symbolic link, so it was not written; add to it:\n  "scripts": {')
    expect(await readFile(join(elsewhere, 'package.json'), 'utf8')).toBe(APP_MANIFEST)
  })

  it('refuses a starter file the project already has, and changes nothing', async () => {
    const dir = await project({ ...APP, 'provider.ts': '// mine\n' })
    const { code, stderr } = await rein(['init', '--write-package-json'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toContain('rein init: . already has provider.ts; nothing was written.')
    expect(existsSync(join(dir, 'rein.yaml'))).toBe(false)
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe(APP_MANIFEST)
  })
})
