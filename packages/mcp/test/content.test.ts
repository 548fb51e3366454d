import { describe, expect, it } from 'vitest'
import { errorText, toContent } from '../src/index.js'

describe('toContent', () => {
  it('keeps text and image blocks and turns every other block into its JSON', () => {
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' }
    expect(toContent([
      { type: 'text', text: 'hi', annotations: { audience: ['user'] } },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      link,
    ])).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: JSON.stringify(link) },
    ])
  })

  it('never returns an empty list', () => {
    expect(toContent([])).toEqual([{ type: 'text', text: '(no output)' }])
    expect(toContent(undefined)).toEqual([{ type: 'text', text: '(no output)' }])
  })
})

describe('errorText', () => {
  it('joins the text blocks, falls back to the blocks as JSON, then to a fixed message', () => {
    expect(errorText([{ type: 'text', text: 'bad' }, { type: 'text', text: 'input' }], 't')).toBe('bad\ninput')
    expect(errorText([{ type: 'image', data: 'A', mimeType: 'image/png' }], 't')).toBe('[{"type":"image","data":"A","mimeType":"image/png"}]')
    expect(errorText([], 'grep')).toBe('MCP tool "grep" reported an error without a message')
  })
})
