/** The trace page is self-contained, escapes what it shows, and has one bar per call. */
import { describe, expect, it } from 'vitest'
import { layoutTrace } from '../src/trace/layout.js'
import { readTrace } from '../src/trace/read.js'
import { renderTrace } from '../src/trace/render.js'
import { sessionText } from './sessions.js'

const trace = readTrace(sessionText([[
  { id: 'a', name: 'read', start: 0, end: 30, mode: 'parallel', args: { path: '<script>alert(1)</script>' }, text: 'x < y & "z"' },
  { id: 'b', name: 'read', start: 0, end: 20, mode: 'parallel' },
  { id: 'c', name: 'write', start: 30, end: 40, mode: 'exclusive', code: 'TOOL_TIMEOUT', args: { from: '${a.result}' }, ran: { from: 'data' } },
]]))
const page = renderTrace(trace, layoutTrace(trace), { source: 'run.jsonl' })

describe('renderTrace', () => {
  it('loads nothing from outside: no scripts, no external URLs, a CSP that forbids both', () => {
    expect(page).not.toMatch(/<script/i)
    expect(page.match(/https?:\/\/[^"\s<]+/g)).toEqual(['http://www.w3.org/2000/svg'])
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
  })

  it('escapes every text taken from the session', () => {
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(page).toContain('x &lt; y &amp; &quot;z&quot;')
  })

  it('has one bar per call, coloured by outcome, with a legend of the outcomes present', () => {
    expect(page.match(/<rect class="bar[ "]/g)).toHaveLength(3)
    expect(page).toMatch(/<rect class="bar" data-id="c" data-outcome="TOOL_TIMEOUT"[^>]* fill="#862e9c">/)
    expect(page).toMatch(/<li><span class="swatch" style="background:#2f9e44"><\/span>ok<\/li>\n<li><span class="swatch" style="background:#862e9c"><\/span>TOOL_TIMEOUT<\/li>/)
  })

  it('shows arguments (as run and as asked), dependencies and a result preview on hover', () => {
    const title = /data-id="c"[^>]*><title>([^<]*)<\/title>/.exec(page)![1]
    expect(title.split('\n')).toEqual([
      'c write — TOOL_TIMEOUT',
      '10ms, started at +30ms in turn 1',
      'exclusive (a barrier)',
      'depends on a',
      'arguments: {&quot;from&quot;:&quot;data&quot;}',
      'as asked: {&quot;from&quot;:&quot;${a.result}&quot;}',
      'result: Error: TOOL_TIMEOUT',
    ])
  })

  it('draws a wait line under a call that waited around its run, says so on hover, and adds it to the legend', () => {
    expect(page).not.toContain('class="wait"')
    const timed = readTrace(sessionText([[
      { id: 'a', start: 0, body: [0, 250], end: 250 },
      { id: 'b', start: 0, body: [0, 100], final: 250, end: 250 },
    ]]))
    const html = renderTrace(timed, layoutTrace(timed), { source: 'run.jsonl' })
    expect(html.match(/<line class="wait" data-id="([^"]+)"/g)).toEqual(['<line class="wait" data-id="b"'])
    expect(html).toContain('<span class="wait-swatch"></span>waiting')
    expect(html).toMatch(/<text class="dur" [^>]*>100ms \(250ms in all\)<\/text>/)
    const title = /data-id="b"[^>]*><title>([^<]*)<\/title>/.exec(html)![1]
    expect(title.split('\n').slice(1, 3)).toEqual(['100ms, started at +0ms in turn 1', '250ms from start (+0ms) to final result (+250ms)'])
  })

  it('draws the group, the barrier and the dependency arrow', () => {
    expect(page.match(/<rect class="group"/g)).toHaveLength(1)
    expect(page.match(/<g class="barrier">/g)).toHaveLength(1)
    expect(page).toMatch(/<path class="dep" [^>]*marker-end="url\(#arrow\)"><title>c depends on a<\/title>/)
  })
})
