/**
 * Example: an agent run traced to an OpenTelemetry collector over OTLP/HTTP (JSON).
 * The app brings the SDK (here `BasicTracerProvider` with the OTLP/HTTP exporter, registered
 * globally); the plugin only uses `@opentelemetry/api`. A scripted model asks for two
 * parallel tool calls, so it runs with no key and no network beyond 127.0.0.1.
 *
 *   node plugins/otel/dist/examples/otlp-http.js                # to a local collector stand-in
 *   node plugins/otel/dist/examples/otlp-http.js http://localhost:4318/v1/traces   # to a real one
 */
import { pathToFileURL } from 'node:url'
import { trace } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent } from '@rein/agent'
import { callMessage, scripted, textMessage, toolCall } from '@rein/testing'
import * as otel from '../src/index.js'
import { startCollector } from './collector.js'

/** Runs one traced agent run, exporting to `url`; resolves once every span is sent. */
export async function runExample(url: string): Promise<string> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'rein-otel-example' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))],
  })
  trace.setGlobalTracerProvider(provider)

  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(otel, { providerName: 'example' })
  await ctx.start()
  ctx.tools.register(kernel.defineTool({
    name: 'word_count',
    description: 'Counts the words of a text.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    isConcurrencySafe: () => true,
    execute: async ({ text }: { text: string }) => text.split(/\s+/).filter(Boolean).length,
  }))
  const model = Object.assign(scripted([
    callMessage([toolCall('call_1', 'word_count', { text: 'to be or not' }), toolCall('call_2', 'word_count', { text: 'to be' })]),
    textMessage('4 and 2 words.'),
  ]), { model: 'scripted-model' })
  const outcome = await createAgent(ctx, { provider: model, name: 'counter' }).run('Count the words.')

  await provider.forceFlush()
  await provider.shutdown()
  trace.disable()
  await ctx.stop()
  return outcome.kind
}

async function main() {
  const target = process.argv[2]
  const collector = target ? undefined : await startCollector()
  try {
    const kind = await runExample(target ?? collector!.url)
    console.log(`run ${kind}`)
    if (collector) {
      for (const span of collector.spans()) console.log(`collector received: ${span.name}`)
    }
  } finally {
    await collector?.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
