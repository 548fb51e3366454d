/**
 * Streamed chunks -> text deltas as they arrive, and the whole `AssistantMessage` at the end.
 * Tool calls are assembled by their `index` (id and name from the first delta that carries
 * them, `arguments` concatenated verbatim, never parsed). An answer counts as complete only
 * after `[DONE]` or a `finish_reason`; a body that stops before either is an interruption.
 * What it keeps is bounded (the kit's `AnswerBudget`): past the size or the number of tool calls
 * of any model answer, the stream is a bad response.
 */
import type { AssistantMessage, ToolCall } from '@rein/kernel'
import {
  AnswerBudget, failWith, ProviderBadResponseError, ProviderStreamInterruptedError, quote,
  type AnswerLimits, type Assembler, type RequestSite, type SSEEvent,
} from '@rein/provider-kit'
import { classifyStreamError, fromErrorValue } from './classify.js'
import { assistantMessage, fallbackCallId, readUsage } from './wire-response.js'

interface PartialCall { id: string, name: string, arguments: string }

type Obj = Record<string, unknown>
const asObject = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined)

/** Accumulates one streamed answer. Feed it every event, then call `finish`. */
export class StreamAssembler implements Assembler<AssistantMessage> {
  private text = ''
  private readonly calls = new Map<number, PartialCall>()
  /** The index of the first call that took each id, for deltas that carry an id but no index. */
  private readonly byId = new Map<string, number>()
  /** The highest index of `calls` (meaningful once there is one). */
  private highest = -Infinity
  private readonly budget: AnswerBudget
  private usage: AssistantMessage['usage']
  private finishReason: string | undefined
  private done = false
  private events = 0

  /** `limits` lowers the kit's bounds on one answer (tests only). */
  constructor(private readonly site: RequestSite, limits: AnswerLimits = {}) {
    this.budget = new AnswerBudget(site, limits)
  }

  /** True once `[DONE]` arrived; later events are ignored. */
  get isDone(): boolean { return this.done }

  /** Feeds one event (its `data`; the wire names no events); returns the text it adds (possibly empty). Throws on an error event. */
  push({ data }: SSEEvent): string {
    if (this.done) return ''
    if (data.trim() === '[DONE]') { this.done = true; return '' }
    this.events++
    let json: unknown
    try { json = JSON.parse(data) } catch {
      throw failWith(this.site, ProviderBadResponseError, `${this.site.baseURL} sent stream event #${this.events} that is not JSON: ${quote(data, this.site)}`)
    }
    const chunk = asObject(json)
    if (chunk === undefined) return ''
    const error = chunk.error === undefined ? undefined : fromErrorValue(chunk)
    if (error !== undefined) throw classifyStreamError(error, this.site)
    const usage = readUsage(chunk.usage)
    if (usage !== undefined) this.usage = usage
    const choices = Array.isArray(chunk.choices) ? chunk.choices : []
    let added = ''
    for (const raw of choices) {
      const choice = asObject(raw)
      if (choice === undefined || (typeof choice.index === 'number' && choice.index !== 0)) continue
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason
      const delta = asObject(choice.delta)
      if (delta === undefined) continue
      if (typeof delta.content === 'string') { this.budget.keep(delta.content.length); added += delta.content }
      if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls) this.toolCallDelta(asObject(tc))
    }
    this.text += added
    return added
  }

  private toolCallDelta(tc: Obj | undefined): void {
    if (tc === undefined) return
    const id = typeof tc.id === 'string' && tc.id !== '' ? tc.id : undefined
    let index = typeof tc.index === 'number' ? tc.index : undefined
    if (index === undefined) {
      const byId = id === undefined ? undefined : this.byId.get(id)
      const last = this.calls.size === 0 ? -1 : this.highest
      // Without an index, a delta with a new id starts a call; one without an id continues the last.
      index = byId ?? (id === undefined && last >= 0 ? last : last + 1)
    }
    let call = this.calls.get(index)
    if (call === undefined) {
      this.budget.part()
      call = { id: '', name: '', arguments: '' }
      this.calls.set(index, call)
      this.highest = Math.max(this.highest, index)
    }
    if (id !== undefined && call.id === '') {
      this.budget.keep(id.length)
      call.id = id
      if (!this.byId.has(id)) this.byId.set(id, index)
    }
    const fn = asObject(tc.function)
    if (fn === undefined) return
    // Most servers send the whole name once; some split it, some repeat it on every delta.
    if (typeof fn.name === 'string' && fn.name !== call.name) { this.budget.keep(fn.name.length); call.name += fn.name }
    if (typeof fn.arguments === 'string') { this.budget.keep(fn.arguments.length); call.arguments += fn.arguments }
  }

  /** The complete message. Throws `ProviderStreamInterruptedError` when the answer never finished. */
  finish(): AssistantMessage {
    if (!this.done && this.finishReason === undefined) {
      throw failWith(this.site, ProviderStreamInterruptedError, `the response stream from ${this.site.baseURL} ended before the answer was complete (after ${this.events} events, without finish_reason or [DONE])`)
    }
    const ordered = [...this.calls].sort(([a], [b]) => a - b)
    const toolCalls: ToolCall[] = ordered.map(([, c], i) => ({ id: c.id || fallbackCallId(i), name: c.name, arguments: c.arguments }))
    return assistantMessage(this.text, toolCalls, this.usage, this.finishReason)
  }
}
