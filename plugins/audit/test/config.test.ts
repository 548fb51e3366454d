import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import * as audit from '../src/index.js'
import { kernelContext } from './helpers.js'

async function loadError(ctx: Context, ...config: unknown[]): Promise<string | undefined> {
  const fork = ctx.plugin(audit, ...config as [never])
  await ctx.start()
  return fork.error?.message
}

const FILE_HINT = 'the file audit appends one JSON line per call to, e.g. file: ./audit.jsonl'

describe('audit config', () => {
  it('fills in the defaults', () => {
    expect(audit.Config({ file: 'a.jsonl' })).toEqual({ file: 'a.jsonl', redact: [], maxStringLength: 4096 })
  })

  it('refuses a config without file, also a missing one, saying what to set', async () => {
    const ctx = await kernelContext()
    expect(await loadError(ctx)).toBe(`$.file is required: ${FILE_HINT}`)
    expect(await loadError(ctx, undefined)).toBe(`$.file is required: ${FILE_HINT}`)
    expect(await loadError(ctx, null)).toBe(`$.file is required: ${FILE_HINT}`)
    expect(await loadError(ctx, {})).toBe(`$.file is required: ${FILE_HINT}`)
    expect(await loadError(ctx, { file: '' })).toBe(`$.file must be a non-empty file path: ${FILE_HINT}`)
    expect(await loadError(ctx, { file: '  ' })).toBe(`$.file must be a non-empty file path: ${FILE_HINT}`)
    expect(await loadError(ctx, { file: 42 })).toBe('$.file expected string but got 42')
    expect(() => audit.Config(undefined)).toThrow(`$.file is required: ${FILE_HINT}`)
    expect(ctx.tools.chain('tools/result')).toEqual([])
    expect(ctx.tools.chain('tools/pre-execute')).toEqual([])
  })

  it('refuses redact entries that are not regular expressions or match the empty string, naming the entry', async () => {
    const ctx = await kernelContext()
    expect(await loadError(ctx, { file: 'a', redact: ['ok', '(unclosed'] })).toBe(
      '$.redact[1] is not a valid regular expression: "(unclosed" (Invalid regular expression: /(unclosed/g: Unterminated group); fix or remove it')
    expect(await loadError(ctx, { file: 'a', redact: ['token-[0-9]+', 'x*'] })).toBe(
      '$.redact[1] matches the empty string ("x*"), so it would mark every position as a secret; make it match at least one character')
    expect(await loadError(ctx, { file: 'a', redact: 'sk-.*' })).toBe('$.redact expected array but got sk-.*')
    expect(await loadError(ctx, { file: 'a', redact: [3] })).toBe('$.redact[0] expected string but got 3')
    expect(await loadError(ctx, { file: 'a', maxStringLength: -1 })).toBe('$.maxStringLength expected number >= 0 but got -1')
    expect(ctx.tools.chain('tools/result')).toEqual([])
  })
})
