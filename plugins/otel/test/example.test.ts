import { expect, it } from 'vitest'
import { startCollector } from '../examples/collector.js'
import { runExample } from '../examples/otlp-http.js'

it('the OTLP/HTTP example delivers the run\'s spans to a collector on 127.0.0.1', async () => {
  const collector = await startCollector()
  try {
    expect(await runExample(collector.url)).toBe('completed')
    expect(collector.requests.every((r) => r.method === 'POST' && r.path === '/v1/traces')).toBe(true)
    const spans = collector.spans()
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat scripted-model', 'chat scripted-model', 'execute_tool word_count', 'execute_tool word_count', 'invoke_agent counter',
    ])
    const root = spans.find((s) => s.name === 'invoke_agent counter')!
    for (const span of spans) if (span !== root) expect(span.parentSpanId).toBe(root.spanId)
    const tool = spans.find((s) => s.name === 'execute_tool word_count')!
    expect(tool.attributes).toContainEqual({ key: 'gen_ai.tool.type', value: { stringValue: 'function' } })
  } finally {
    await collector.close()
  }
})
