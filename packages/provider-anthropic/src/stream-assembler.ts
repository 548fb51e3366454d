/**
 * Streamed events -> text deltas as they arrive, and the whole message at the end. Blocks are
 * kept by `index`: text blocks add to the text, `tool_use` blocks collect their
 * `input_json_delta` partials verbatim (never parsed: the raw JSON text becomes `arguments`).
 * `ping` and unknown events are skipped; an `error` event throws. The answer counts as complete
 * after `message_stop` or a `stop_reason`; a stream that ends before either was interrupted.
 * What it keeps is bounded (the kit's `AnswerBudget`): past the size or the number of blocks of
 * any model answer, the stream is a bad response. Blocks are kept in a map, so a large `index`
 * costs nothing.
 */
import type { ToolCall } from '@rein/kernel'
import {
  AnswerBudget, failWith, ProviderBadResponseError, ProviderStreamInterruptedError, quote,
  type AnswerLimits, type Assembler, type RequestSite, type SSEEvent,
} from '@rein/provider-kit'
import { classifyStreamError, fromErrorValue } from './classify.js'
import { assistantMessage, fallbackCallId, readUsage, type AnthropicAssistantMessage, type StopReason } from './wire-response.js'

type Block =
  | { kind: 'text' }
  /** `json`: the `input_json_delta` partials joined; `input`: the start's `input` as JSON text. */
  | { kind: 'tool', id: string, name: string, json: string, input: string }
  | { kind: 'other' }

type Obj = Record<string, unknown>
const asObject = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined)

/** Accumulates one streamed answer. Feed it every event, then call `finish`. */
export class MessageAssembler implements Assembler<AnthropicAssistantMessage> {
  private text = ''
  private readonly blocks = new Map<number, Block>()
  private readonly budget: AnswerBudget
  private usage: AnthropicAssistantMessage['usage']
  private stopReason: StopReason | undefined
  private done = false
  private events = 0

  /** `limits` lowers the kit's bounds on one answer (tests only). */
  constructor(private readonly site: RequestSite, limits: AnswerLimits = {}) {
    this.budget = new AnswerBudget(site, limits)
  }

  /** True once `message_stop` arrived; later events are ignored. */
  get isDone(): boolean { return this.done }

  /** Feeds one event; returns the text it adds (possibly empty). Throws on an `error` event or a malformed one. */
  push(event: SSEEvent): string {
    if (this.done) return ''
    this.events++
    let json: unknown
    try { json = JSON.parse(event.data) } catch {
      throw this.bad(event, 'is not JSON')
    }
    const data = asObject(json)
    if (data === undefined) throw this.bad(event, 'is not a JSON object')
    const type = typeof data.type === 'string' ? data.type : event.event
    switch (type) {
      case 'message_start':
        this.usage = readUsage(asObject(data.message)?.usage, this.usage)
        return ''
      case 'content_block_start':
        return this.start(event, this.indexOf(event, data), asObject(data.content_block))
      case 'content_block_delta':
        return this.delta(event, this.indexOf(event, data), asObject(data.delta))
      case 'message_delta': {
        const stop = asObject(data.delta)?.stop_reason
        if (typeof stop === 'string') this.stopReason = stop
        this.usage = readUsage(data.usage, this.usage)
        return ''
      }
      case 'message_stop':
        this.done = true
        return ''
      case 'error':
        throw classifyStreamError(fromErrorValue(data) ?? { message: event.data }, this.site)
      case undefined:
        throw this.bad(event, 'has no type')
      default:
        return '' // ping, content_block_stop, and event types added to the API later
    }
  }

  private bad(event: SSEEvent, what: string): ProviderBadResponseError {
    const name = event.event === undefined ? '' : ` (${event.event})`
    return failWith(this.site, ProviderBadResponseError, `${this.site.baseURL} sent stream event #${this.events}${name} that ${what}, so it is not a Messages API stream: ${quote(event.data, this.site)}`)
  }

  private indexOf(event: SSEEvent, data: Obj): number {
    if (typeof data.index === 'number' && Number.isInteger(data.index) && data.index >= 0) return data.index
    throw this.bad(event, 'has no block index')
  }

  private start(event: SSEEvent, index: number, block: Obj | undefined): string {
    this.budget.part()
    if (block?.type === 'text') {
      const initial = typeof block.text === 'string' ? block.text : ''
      this.budget.keep(initial.length)
      this.blocks.set(index, { kind: 'text' })
      this.text += initial
      return initial
    }
    if (block?.type === 'tool_use') {
      if (typeof block.name !== 'string' || block.name === '') throw this.bad(event, 'starts a tool_use block without a name')
      const id = typeof block.id === 'string' && block.id !== '' ? block.id : ''
      const input = JSON.stringify(block.input ?? {})
      this.budget.keep(id.length + block.name.length + input.length)
      this.blocks.set(index, { kind: 'tool', id, name: block.name, json: '', input })
      return ''
    }
    this.blocks.set(index, { kind: 'other' })
    return ''
  }

  private delta(event: SSEEvent, index: number, delta: Obj | undefined): string {
    const block = this.blocks.get(index)
    if (block === undefined) throw this.bad(event, `adds to block #${index}, which never started`)
    if (delta?.type === 'text_delta') {
      if (block.kind !== 'text' || typeof delta.text !== 'string') throw this.bad(event, `sends text to block #${index}, which is not a text block`)
      this.budget.keep(delta.text.length)
      this.text += delta.text
      return delta.text
    }
    if (delta?.type === 'input_json_delta') {
      if (block.kind !== 'tool' || typeof delta.partial_json !== 'string') throw this.bad(event, `sends tool input to block #${index}, which is not a tool_use block`)
      this.budget.keep(delta.partial_json.length)
      block.json += delta.partial_json
    }
    return '' // thinking, signatures and citations are not part of a rein message
  }

  /** The complete message. Throws `ProviderStreamInterruptedError` when the answer never finished. */
  finish(): AnthropicAssistantMessage {
    if (!this.done && this.stopReason === undefined) {
      throw failWith(this.site, ProviderStreamInterruptedError, `the response stream from ${this.site.baseURL} ended before the answer was complete (after ${this.events} events, without message_stop)`)
    }
    const tools = [...this.blocks].filter((e): e is [number, Extract<Block, { kind: 'tool' }>] => e[1].kind === 'tool').sort(([a], [b]) => a - b)
    const calls: ToolCall[] = tools.map(([, b], i) => ({
      id: b.id || fallbackCallId(i),
      name: b.name,
      arguments: b.json !== '' ? b.json : b.input,
    }))
    return assistantMessage(this.text, calls, this.usage, this.stopReason)
  }
}
