/**
 * The text rein shows a model for one result, for hosts whose tool outputs are text: the
 * content blocks joined by newlines (an image named, not sent), then the additional contexts.
 * A failure's first block is `Error: <message>`, so a refusal reads as one.
 */
import type { ContentBlock, ToolExecutionResult } from '@rein/kernel'

/** The model-visible text of `result`. Pure; never throws. */
export function modelText(result: ToolExecutionResult): string {
  const blocks: ContentBlock[] = [...result.content, ...(result.additionalContexts ?? [])]
  return blocks.map(blockText).join('\n')
}

function blockText(block: ContentBlock): string {
  return block.type === 'text' ? block.text : `[image ${block.mimeType}, ${block.data.length} base64 characters, not shown]`
}
