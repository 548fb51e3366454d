/** The plain view (pipes, logs, CI): the model's words are kept, once, and reasons are never cut. */
import { failure } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { PlainView } from '../src/progress/plain-view.js'
import { createStyle } from '../src/progress/style.js'
import type { LiveCall } from '../src/progress/view.js'

function view() {
  let text = ''
  return { out: () => text, view: new PlainView({ write: (s: string) => { text += s } }, createStyle(false)) }
}

const call = (id: string): LiveCall => ({ turn: 1, index: 0, id, name: 'bash', arguments: {}, mode: 'exclusive', startedAt: 0 })

describe('PlainView', () => {
  it('prints streamed text before the calls it announced, and the answer once', () => {
    const { out, view: v } = view()
    for (const delta of ['Reading ', 'the file.']) v.text(delta)
    v.started(call('c1'))
    for (const delta of ['All ', 'done.']) v.text(delta)
    v.answer('All done.')
    v.close()
    expect(out()).toBe('model: Reading the file.\nturn 1\n  ▶ c1 bash {}  · exclusive: a barrier\nanswer:\nAll done.\n')
  })

  it('says a non-streamed narration once, even when the same words were also streamed', () => {
    const { out, view: v } = view()
    v.text('Two reads.')
    v.note('Two reads.')
    v.note('Then a write.\nAnd a check.')
    expect(out()).toBe('model: Two reads.\nmodel: Then a write.\nmodel: And a check.\n')
  })

  it('keeps the whole first line of a failure', () => {
    const { out, view: v } = view()
    const c = { ...call('c2'), result: failure('TOOL_DENIED', `${'a long reason '.repeat(20).trim()}\nsecond line`), durationMs: 1 }
    v.ended(c)
    expect(out()).toBe(`  ✗ c2 bash TOOL_DENIED 1ms  · ${'a long reason '.repeat(20).trim()}\n`)
  })

  it('marks a call that waits for approval as waiting, not as failed', () => {
    const { out, view: v } = view()
    v.ended({ ...call('c3'), result: failure('APPROVAL_PARKED', '"bash" awaits approval'), durationMs: 2 })
    expect(out()).toBe('  ⏸ c3 bash APPROVAL_PARKED 2ms  · "bash" awaits approval\n')
  })
})
