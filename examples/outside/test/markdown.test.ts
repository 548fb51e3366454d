/** The Markdown reading behind the link check: fences skipped, links and mentions found, GitHub anchors. */
import { describe, expect, it } from 'vitest'
import { anchors, mentionedFiles, prose, relativeLinks } from './markdown.js'

const DOC = [
  '# rein architecture',
  'See [the kernel](../packages/kernel/README.md#api-ctxtools), [a site](https://x.dev/a.md) and DESIGN.md.',
  '```md',
  '[not a link](nowhere.md) and notes.md',
  '```',
  '## The scheduler and the commit cursor (`@rein/agent`)',
  '## Notes',
  '## Notes',
].join('\n')

describe('markdown', () => {
  it('leaves fenced code out, line for line', () => {
    expect(prose(DOC).slice(2, 5)).toEqual(['', '', ''])
  })

  it('finds relative links with their lines, not URLs', () => {
    expect(relativeLinks(prose(DOC))).toEqual([{ line: 2, target: '../packages/kernel/README.md#api-ctxtools' }])
  })

  it('finds Markdown files named in prose, not the ones in links or URLs', () => {
    expect(mentionedFiles(prose(DOC))).toEqual([{ line: 2, target: 'DESIGN.md' }])
  })

  it('gives headings the anchors GitHub gives them', () => {
    expect([...anchors(DOC)]).toEqual(['rein-architecture', 'the-scheduler-and-the-commit-cursor-reinagent', 'notes', 'notes-1'])
  })
})
