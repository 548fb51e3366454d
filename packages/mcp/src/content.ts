/**
 * What the model sees of an MCP result. Text and image blocks map one to one; every other
 * block (audio, resource links, embedded resources) becomes a text block holding its JSON,
 * so nothing the server said is dropped. The error text of an `isError` result is its text.
 */
import type { ContentBlock } from '@rein/kernel'

/** One MCP content block, as far as this module needs to know it. */
export type McpContent = { type: string, [key: string]: unknown }

/** Maps MCP content blocks to rein content blocks (a new array; never empty). */
export function toContent(blocks: readonly McpContent[] | undefined): ContentBlock[] {
  const out: ContentBlock[] = []
  for (const block of blocks ?? []) {
    if (block.type === 'text' && typeof block.text === 'string') {
      out.push({ type: 'text', text: block.text })
    } else if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string') {
      out.push({ type: 'image', data: block.data, mimeType: block.mimeType })
    } else {
      out.push({ type: 'text', text: JSON.stringify(block) })
    }
  }
  return out.length > 0 ? out : [{ type: 'text', text: '(no output)' }]
}

/** The message of an `isError` result: its text blocks joined, else its blocks as JSON. */
export function errorText(blocks: readonly McpContent[] | undefined, tool: string): string {
  const texts = (blocks ?? []).flatMap((block) => block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])
  const text = texts.join('\n').trim()
  if (text) return text
  if (blocks?.length) return JSON.stringify(blocks)
  return `MCP tool "${tool}" reported an error without a message`
}
