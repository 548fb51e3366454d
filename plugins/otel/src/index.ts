/**
 * `@rein/plugin-otel`: OpenTelemetry GenAI semantic-convention spans for agent runs
 * (`invoke_agent`), model requests (`chat`) and tool calls (`execute_tool`), through
 * `@opentelemetry/api` only: register any SDK tracer provider globally, and spans appear.
 *
 *   trace.setGlobalTracerProvider(provider)
 *   ctx.plugin(otel, { providerName: 'deepseek' })
 */
export { name, inject, apply } from './plugin.js'
export { Config, DEFAULT_TRACER_NAME, type OtelConfig, type OtelInput } from './config.js'
export { ATTR, errorType } from './attributes.js'
