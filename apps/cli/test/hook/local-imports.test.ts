/**
 * `localImports` (`src/hook/local-imports.ts`): the files a resident's local plugin modules
 * import in turn, found in their source, so that an edit of any of them makes the resident stale.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { localImports } from '../../src/hook/local-imports.js'
import { project } from '../helpers.js'

describe('localImports', () => {
  it('follows every relative specifier form, in turn, through cycles, with the extensions tsx resolves', async () => {
    const dir = await project({
      'guard.mjs': "import { a } from './lib/a.mjs'\nexport * from \"./b\"\nconst c = await import('./c.js')\nimport './side-effect.mjs'\n",
      'lib/a.mjs': "import { guard } from '../guard.mjs'\nimport { d } from './d.js'\nexport const a = 1\n",
      'lib/d.ts': "export const d = require('./e')\n",
      'lib/e/index.cjs': 'module.exports = 1\n',
      'b.ts': 'export const b = 1\n',
      'c.js': 'export const c = 1\n',
      'side-effect.mjs': '',
    })
    const found = localImports([join(dir, 'guard.mjs')]).map((file) => file.slice(dir.length + 1)).sort()
    expect(found).toEqual(['b.ts', 'c.js', 'lib/a.mjs', 'lib/d.ts', 'lib/e/index.cjs', 'side-effect.mjs'])
  })

  it('does not follow packages, files under node_modules, missing files or unreadable starting points', async () => {
    const dir = await project({
      'guard.mjs': "import yaml from 'yaml'\nimport { x } from './node_modules/x/index.mjs'\nimport { gone } from './gone.mjs'\n",
    })
    await mkdir(join(dir, 'node_modules', 'x'), { recursive: true })
    await writeFile(join(dir, 'node_modules', 'x', 'index.mjs'), "import './inner.mjs'\n")
    expect(localImports([join(dir, 'guard.mjs'), join(dir, 'nope.mjs')])).toEqual([])
  })
})
