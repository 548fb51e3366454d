import { describe, expect, it } from 'vitest'
import { shell, textOf, valueOf } from './helpers.js'

const seq = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('')
const bytes = (text: string) => Buffer.byteLength(text)

/** Splits a kept stream at its marker; checks the marker names the omitted count. */
function parts(kept: string, omitted: number): [string, string] {
  const marker = `\n[... ${omitted} bytes omitted ...]\n`
  const at = kept.indexOf(marker)
  expect(at).toBeGreaterThanOrEqual(0)
  return [kept.slice(0, at), kept.slice(at + marker.length)]
}

describe('large output', () => {
  it('keeps the head and the tail of stdout with the exact number of bytes left out', async () => {
    const sh = await shell()
    const expected = seq(200_000)
    const value = valueOf(await sh.call({ command: 'seq 1 200000' }))
    expect(value.stdoutBytes).toBe(bytes(expected))
    const [head, tail] = parts(value.stdout, value.stdoutOmittedBytes)
    expect(expected.startsWith(head)).toBe(true)
    expect(expected.endsWith(tail)).toBe(true)
    expect(bytes(head) + bytes(tail) + value.stdoutOmittedBytes).toBe(value.stdoutBytes)
    expect(bytes(head) + bytes(tail)).toBe(30_000)
    expect(tail.endsWith('200000\n')).toBe(true)
    expect(textOf(await sh.call({ command: 'seq 1 200000' }))).toContain(`[... ${value.stdoutOmittedBytes} bytes omitted ...]`)
  })

  it('splits the budget between stdout and stderr, each with exact counts', async () => {
    const sh = await shell({ maxOutputBytes: 1000 })
    const out = seq(5000)
    const value = valueOf(await sh.call({ command: 'seq 1 5000; seq 1 5000 >&2' }))
    for (const stream of ['stdout', 'stderr'] as const) {
      const omitted = value[`${stream}OmittedBytes`]
      expect(value[`${stream}Bytes`]).toBe(bytes(out))
      const [head, tail] = parts(value[stream], omitted)
      expect(out.startsWith(head) && out.endsWith(tail)).toBe(true)
      expect(bytes(head) + bytes(tail)).toBe(500)
      expect(bytes(head) + bytes(tail) + omitted).toBe(bytes(out))
    }
  })

  it('gives a quiet stream all it has and the noisy one the rest', async () => {
    const sh = await shell({ maxOutputBytes: 1000 })
    const value = valueOf(await sh.call({ command: 'seq 1 5000; echo warning >&2' }))
    expect(value.stderr).toBe('warning\n')
    expect(value.stdoutBytes - value.stdoutOmittedBytes).toBe(1000 - 8)
  })

  it('never cuts a multi-byte character, and counts bytes exactly', async () => {
    const sh = await shell({ maxOutputBytes: 1001 })
    const unit = '😀é' // 6 bytes
    const value = valueOf(await sh.call({ command: `for i in $(seq 1 3000); do printf '${unit}'; done` }))
    const all = unit.repeat(3000)
    expect(value.stdoutBytes).toBe(bytes(all))
    const [head, tail] = parts(value.stdout, value.stdoutOmittedBytes)
    expect(head + tail).not.toContain('\uFFFD')
    expect(all.startsWith(head) && all.endsWith(tail)).toBe(true)
    expect(bytes(head) + bytes(tail) + value.stdoutOmittedBytes).toBe(bytes(all))
  })
})
