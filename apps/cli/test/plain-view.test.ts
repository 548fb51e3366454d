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

describe('PlainView: what the model and tools wrote cannot drive the terminal', () => {
  const hostile = 'a\x1b[8mb\x9b2Jc\u202ed\x07'
  const shown = 'a\\x1b[8mb\\x9b2Jc\\u202ed\\x07'

  it('escapes ESC, C1 and bidi controls in model text, the answer, ids, names, arguments and errors', () => {
    const { out, view: v } = view()
    v.text(`said ${hostile}`)
    v.note(`noted ${hostile}\nnext`)
    const c: LiveCall = { ...call(`c1${hostile}`), name: `bash${hostile}`, arguments: `{"x":"${hostile}"` }
    v.started(c)
    v.ended({ ...c, result: failure('TOOL_FAILED', `boom ${hostile}\x1b[8m`), durationMs: 1 })
    v.turnEnded({ turn: 1, outcome: 'committed', calls: [c], groups: [[c.id]], wallMs: 1, serialMs: 1 })
    v.status(`stopped ${hostile}`)
    v.answer(`done ${hostile}\r\nline two\rover`)
    v.close()
    const text = out()
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(text).toContain(`model: noted ${shown}\nmodel: next\n`)
    expect(text).toContain(`  ▶ c1${shown} bash${shown} {"x":"a\\x1b[8mb\\x9b2J`)
    expect(text).toContain(`TOOL_FAILED 1ms  · boom ${shown}\\x1b[8m\n`)
    expect(text).toContain(`ran as [c1${shown}]`)
    expect(text).toContain(`stopped ${shown}\n`)
    expect(text).toContain(`answer:\ndone ${shown}\nline two\\x0dover\n`)
  })
})
