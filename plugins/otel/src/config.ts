/**
 * The config schema, checked once at load (by cordis at `ctx.plugin(...)`, and by the loader).
 * Every key has a default, so the plugin runs with no config at all. Content (messages, tool
 * arguments and results) is never recorded unless `captureContent` is set; every `redact`
 * entry must compile as a regular expression that cannot match the empty string. The `max*`
 * bounds cut what spans carry (0 = no limit).
 */
import { Schema } from 'cordis'
import { patternProblem } from '@rein/redact'
import { DEFAULT_MAX_CONTENT_LENGTH, DEFAULT_MAX_NAME_LENGTH, DEFAULT_MAX_STRING_LENGTH } from './limit.js'

export interface OtelConfig {
  /** The instrumentation scope name of the tracer (`trace.getTracer(tracerName)`). */
  tracerName: string
  /** Record messages, tool arguments and tool results as span attributes (may hold secrets). */
  captureContent: boolean
  /** `gen_ai.provider.name` on agent and chat spans, e.g. `openai`, `deepseek`, `anthropic`. */
  providerName?: string
  /** Extra secret patterns (RegExp sources, matched globally) redacted after the built-in ones, as audit's `redact`. */
  redact: string[]
  /** Cut longer strings: each string attribute, status message and string of content (0 = never). */
  maxStringLength: number
  /** Cut a content attribute's whole JSON text (messages, tool arguments and results) when longer (0 = never). */
  maxContentLength: number
  /** Cut longer span names and tool names (0 = never). */
  maxNameLength: number
}

/** What a user may write. */
export type OtelInput = Partial<OtelConfig>

/** The default `tracerName`: this package's name. */
export const DEFAULT_TRACER_NAME = '@rein/plugin-otel'

const Shape = Schema.object({
  tracerName: Schema.string().default(DEFAULT_TRACER_NAME).description('Instrumentation scope name of the tracer.'),
  captureContent: Schema.boolean().default(false).description('Record messages and tool arguments/results (may hold secrets).'),
  providerName: Schema.string().description('gen_ai.provider.name, e.g. openai, deepseek, anthropic.'),
  redact: Schema.array(Schema.string()).default([]).description('Extra secret patterns (RegExp sources).'),
  maxStringLength: Schema.natural().default(DEFAULT_MAX_STRING_LENGTH).description('Cut longer strings in attributes, status messages and content; 0 = never.'),
  maxContentLength: Schema.natural().default(DEFAULT_MAX_CONTENT_LENGTH).description('Cut a longer content attribute (its JSON text); 0 = never.'),
  maxNameLength: Schema.natural().default(DEFAULT_MAX_NAME_LENGTH).description('Cut longer span names and tool names; 0 = never.'),
})

function check(config: OtelConfig): OtelConfig {
  config.redact.forEach((source, index) => {
    const problem = patternProblem(source)
    if (problem !== undefined) throw new Schema.ValidationError(problem, { path: ['redact', index] })
  })
  return config
}

export const Config: Schema<OtelInput | undefined, OtelConfig> =
  Schema.transform(Shape, (input) => check(input as unknown as OtelConfig), true).default({} as OtelConfig) as Schema<OtelInput | undefined, OtelConfig>
