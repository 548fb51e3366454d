/**
 * `redact`: what spill writes at rest holds no secret a tool printed. The file on disk, its
 * preview and the offsets the preview names are all of the redacted output; off by default.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/index.js'
import { firstText, harness } from './helpers.js'

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.c2lnbmF0dXJl'
const output = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}: curl -H 'Authorization: Bearer ${TOKEN}' corp-${(i % 16).toString(16).repeat(8)}`).join('\n')

/** Every file under `dir`, read whole. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')))
}

describe('redact', () => {
  it('writes the spilled output to disk with Bearer tokens and configured patterns redacted', async () => {
    const { ctx, outputs, call } = await harness({ store: 'local', maxInlineBytes: 2000, redact: ['corp-[0-9a-f]{8}'] })
    const text = output(500)
    outputs.set('default', text)
    const result = await call('emit')
    const spilled = result.meta?.spilled as { locator: string, bytes: number }
    const saved = await ctx.spillStore.read(spilled.locator)
    const expected = text.replaceAll(TOKEN, '[REDACTED]').replace(/corp-[0-9a-f]{8}/g, '[REDACTED]')
    expect(saved).toBe(expected)
    expect(spilled.bytes).toBe(Buffer.byteLength(expected))
    const dir = (ctx.spillStore as unknown as { directory?: string }).directory
    expect(dir).toBeDefined()
    const files = await filesUnder(dir!)
    expect(files.join('\n')).not.toContain(TOKEN)
    const preview = firstText(result)
    expect(preview).not.toContain(TOKEN)
    expect(preview).toContain(`of ${Buffer.byteLength(expected)}.`)
  })

  it('is off by default: the store holds the output as the tool printed it', async () => {
    const { ctx, outputs, call } = await harness({ store: 'memory', maxInlineBytes: 2000 })
    outputs.set('default', output(100))
    const result = await call('emit')
    expect(await ctx.spillStore.read((result.meta?.spilled as { locator: string }).locator)).toBe(output(100))
  })

  it('refuses a pattern that does not compile or matches the empty string, naming the entry', () => {
    expect(() => Config({ redact: ['ok', 'corp-[0-9'] })).toThrow(/redact\[1\] is not a valid regular expression/)
    expect(() => Config({ redact: ['x?'] })).toThrow(/redact\[0\] matches the empty string/)
    expect(Config({}).redact).toBe(false)
  })
})
