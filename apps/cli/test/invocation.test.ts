/** Follow-up commands are printed in a form that runs from where the person is. */
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reinCommand, shellWord } from '../src/invocation.js'
import { project } from './helpers.js'

const CLI = '/opt/tools/rein-cli'

describe('reinCommand', () => {
  it('says npx rein when a node_modules/.bin/rein is in the folder or above, as npx looks', async () => {
    const dir = await project({ 'node_modules/.bin/rein': '#!/bin/sh\n' })
    await mkdir(join(dir, 'sub', 'deeper'), { recursive: true })
    expect(reinCommand(join(dir, 'sub', 'deeper'), {}, CLI)).toBe('npx rein')
  })

  it('says npx @rein/cli when running from the npx cache, where npx rein would fetch another package', async () => {
    const dir = await project()
    expect(reinCommand(dir, {}, '/home/u/.npm/_npx/1a2b/node_modules/@rein/cli')).toBe('npx @rein/cli')
  })

  it('says rein when it is on the PATH, else node and the path of its bin', async () => {
    const dir = await project({ 'bin/rein': '#!/bin/sh\n' })
    await chmod(join(dir, 'bin/rein'), 0o755)
    expect(reinCommand(dir, { PATH: `/nowhere:${join(dir, 'bin')}` }, CLI)).toBe('rein')
    expect(reinCommand(dir, { PATH: '/nowhere' }, CLI)).toBe(`node ${CLI}/bin/rein.mjs`)
    const here = await project()
    await writeFile(join(here, 'x'), '')
    expect(reinCommand(here, {}, join(here, 'tools', 'cli'))).toBe('node tools/cli/bin/rein.mjs')
  })

  it('quotes a word only when a shell would split or expand it', () => {
    expect(shellWord('.rein/demo-session.jsonl')).toBe('.rein/demo-session.jsonl')
    expect(shellWord("my agent's")).toBe(`'my agent'\\''s'`)
  })
})
