/**
 * Every relative link in every README and in docs/*.md points at a file that exists, and
 * every `#anchor` at a heading that exists; every Markdown file named in prose (`see
 * DESIGN.md`) exists too, taken from the file's folder, its package or the repository root.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO } from './helpers.js'
import { anchors, mentionedFiles, prose, relativeLinks } from './markdown.js'

const SKIP = new Set(['node_modules', 'dist', '.git', '.rein', '.turbo', 'coverage'])

function markdownFiles(): string[] {
  const found: string[] = []
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (entry.name === 'README.md' || (dirname(path) === join(REPO, 'docs') && entry.name.endsWith('.md'))) found.push(path)
    }
  }
  visit(REPO)
  return found.sort()
}

/** The package folder holding `file` (nearest package.json), else the repository root. */
function packageOf(file: string): string {
  for (let dir = dirname(file); dir.startsWith(REPO) && dir !== REPO; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
  }
  return REPO
}

const files = markdownFiles()

describe('Markdown links', () => {
  it('finds the READMEs and docs', () => {
    expect(files.map((f) => relative(REPO, f))).toEqual(expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'apps/cli/README.md']))
  })

  it.each(files.map((f) => [relative(REPO, f), f]))('%s: every relative link and #anchor resolves', (_, file) => {
    const lines = prose(readFileSync(file, 'utf8'))
    const broken: string[] = []
    for (const { line, target } of relativeLinks(lines)) {
      const [path = '', anchor] = decodeURI(target).split('#')
      const to = path === '' ? file : resolve(dirname(file), path)
      if (!existsSync(to)) broken.push(`:${line} ${target}: no such file`)
      else if (anchor && to.endsWith('.md') && !anchors(readFileSync(to, 'utf8')).has(anchor)) broken.push(`:${line} ${target}: no heading with that anchor`)
    }
    expect(broken).toEqual([])
  })

  it.each(files.map((f) => [relative(REPO, f), f]))('%s: every Markdown file named in prose exists', (_, file) => {
    const lines = prose(readFileSync(file, 'utf8'))
    const bases = [dirname(file), packageOf(file), REPO]
    const missing = mentionedFiles(lines)
      .filter(({ target }) => !bases.some((base) => existsSync(resolve(base, target))))
      .map(({ line, target }) => `:${line} ${target}`)
    expect(missing).toEqual([])
  })
})
