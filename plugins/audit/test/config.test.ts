import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import * as audit from '../src/index.js'
import { kernelContext } from './helpers.js'

async function loadError(ctx: Context, config: unknown): Promise<string | undefined> {
  const fork = ctx.plugin(audit, config as never)
  await ctx.start()
  return fork.error?.message
}

describe('audit config', () => {
  it('fills in the defaults', () => {
    expect(audit.Config({ file: 'a.jsonl' })).toEqual({ file: 'a.jsonl', redact: [], maxStringLength: 4096 })
  })

  it('rejects bad configs at load, naming the key', async () => {
    const ctx = await kernelContext()
    expect(await loadError(ctx, {})).toBe('$.file missing required value')
    expect(await loadError(ctx, { file: '' })).toBe('$.file must be a non-empty file path')
    expect(await loadError(ctx, { file: 'a', redact: ['ok', '(unclosed'] }))
      .toBe('$.redact[1] is not a valid regular expression: "(unclosed" (Invalid regular expression: /(unclosed/g: Unterminated group)')
    expect(await loadError(ctx, { file: 'a', redact: 'sk-.*' })).toBe('$.redact expected array but got sk-.*')
    expect(await loadError(ctx, { file: 'a', maxStringLength: -1 })).toBe('$.maxStringLength expected number >= 0 but got -1')
    expect(ctx.tools.chain('tools/result')).toEqual([])
  })
})
