/** A toy wire's answer: each SSE event's data is a piece of text, `end` ends it. For the kit's own tests. */
import type { AssistantMessage } from '@rein/kernel'
import type { Assembler } from '../src/answers.js'
import type { SSEEvent } from '../src/sse.js'

export class ToyAssembler implements Assembler<AssistantMessage> {
  text = ''
  isDone = false
  push({ data }: SSEEvent): string {
    if (data === 'end') { this.isDone = true; return '' }
    this.text += data
    return data
  }

  finish(): AssistantMessage { return { role: 'assistant', content: this.text } }
}
