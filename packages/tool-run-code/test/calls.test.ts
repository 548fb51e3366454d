import { afterEach, describe, expect, it } from 'vitest'
import { defineTool } from '@rein/kernel'
import { harness, outcome, run } from './helpers.js'

const stops: Array<() => Promise<void>> = []
afterEach(async () => { await Promise.all(stops.splice(0).map((stop) => stop())) })

/** `echo(args)`: returns its arguments; `runs` counts its executions. */
function echoTool() {
  const counted = { runs: 0 }
  const tool = defineTool<{ s: string }>({
    name: 'echo',
    description: 'Returns its arguments.',
    parameters: { type: 'object', properties: { s: { type: 'string' } } },
    execute: (args) => {
      counted.runs++
      return args
    },
  })
  return { tool, counted }
}

describe("a run's sub-calls", () => {
  it('stop the run (CODE_MEMORY_LIMIT) once their arguments and replies pass 4 times the memory limit', async () => {
    const { tool, counted } = echoTool()
    const made = await harness({ config: { memoryLimitBytes: 4 << 20 }, tools: [tool] })
    stops.push(() => made.ctx.stop())
    // 256 KiB out and back per call: 100 calls would move 50 MiB; the cap is 16 MiB.
    const [code, text] = outcome(await run(made.ctx, `
      const big = 'Q'.repeat(256 << 10)
      for (let i = 0; i < 100; i++) await tools.echo({ s: big })
      return 'all sent'`))
    expect(code).toBe('CODE_MEMORY_LIMIT')
    expect(text).toContain(`the code's tool calls passed more than ${16 << 20} characters of arguments and replies in one run`)
    expect(counted.runs).toBe(32)
  })

  it('may move up to the cap in one run', async () => {
    const { tool, counted } = echoTool()
    const made = await harness({ config: { memoryLimitBytes: 4 << 20 }, tools: [tool] })
    stops.push(() => made.ctx.stop())
    const result = await run(made.ctx, `
      const big = 'Q'.repeat(256 << 10)
      for (let i = 0; i < 30; i++) await tools.echo({ s: big })
      return 'all sent'`)
    expect(outcome(result)).toEqual(['OK', 'all sent'])
    expect(counted.runs).toBe(30)
  })
})
