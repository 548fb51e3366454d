/**
 * A 5 MB output through the whole stack: spill (outermost on post-execute) keeps it out of
 * the model's context, and the store gives it back byte for byte — directly and through
 * `read_spilled` calls that run the same pipeline as any other tool.
 */
import { describe, expect, it } from 'vitest'
import { harness } from './helpers.js'

const CAP = 50_000 // spill's default maxInlineBytes, which the standard stack keeps

/** About 5 MB of lines mixing 1-, 2-, 3- and 4-byte UTF-8 characters. */
function bigText(): string {
  const lines: string[] = []
  let bytes = 0
  for (let i = 0; bytes < 5_000_000; i++) {
    const line = `${String(i).padStart(6, '0')} résumé ✓ 🙂 ${'x'.repeat(i % 50)}\n`
    lines.push(line)
    bytes += Buffer.byteLength(line)
  }
  return lines.join('')
}

function textOf(block: unknown): string {
  return (block as { type: 'text', text: string }).text
}

describe('a 5 MB output', () => {
  it('is spilled to the store, shown as a preview within the cap, and read back byte-identical', async () => {
    const h = await harness()
    h.output.text = bigText()
    const bytes = Buffer.byteLength(h.output.text)
    const result = await h.call('dump')
    expect(result.isError).toBe(false)
    const preview = textOf(result.content[0])
    expect(Buffer.byteLength(preview)).toBeLessThanOrEqual(CAP)
    const spilled = result.meta?.spilled as { locator: string, bytes: number }
    expect(spilled.bytes).toBe(bytes)
    expect(preview).toContain(spilled.locator)
    expect(preview.startsWith(h.output.text.slice(0, 100))).toBe(true)
    expect(preview.endsWith(h.output.text.slice(-100))).toBe(true)

    const stored = await h.ctx.spillStore.read(spilled.locator)
    expect(Buffer.from(stored).equals(Buffer.from(h.output.text))).toBe(true)

    // the audit line records what the model saw, not the 5 MB
    const [line] = await h.auditLines()
    expect([line.name, line.resultBytes <= CAP]).toEqual(['dump', true])
  })

  it('pages back whole through read_spilled calls, none of which is spilled itself', async () => {
    const h = await harness()
    h.output.text = bigText()
    const result = await h.call('dump')
    const { locator } = result.meta?.spilled as { locator: string }
    const pages: Buffer[] = []
    for (let offset = 0, more = true; more;) {
      const page = await h.call('read_spilled', { locator, offset })
      if (page.isError) throw new Error(page.error.message)
      const value = page.value as { text: string, nextOffset: number, more: boolean }
      expect(Buffer.byteLength(value.text)).toBeLessThanOrEqual(CAP)
      expect(page.meta?.spilled).toBeUndefined()
      pages.push(Buffer.from(value.text))
      offset = value.nextOffset
      more = value.more
    }
    expect(pages.length).toBeGreaterThan(100)
    expect(Buffer.concat(pages).equals(Buffer.from(h.output.text))).toBe(true)
    expect((await h.auditLines()).length).toBe(1 + pages.length)
  })
})
