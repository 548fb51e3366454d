/**
 * Draws a laid-out trace as one self-contained HTML page: inline CSS and an inline SVG, no
 * scripts and nothing fetched (a Content-Security-Policy forbids it), so the file can be
 * mailed or attached as is. A bar is a call's run, a thin line under it the time it waited
 * around that run (started to final result). Hovering a bar shows its times, arguments and a
 * result preview (SVG `<title>`); a table below repeats every call as text. All text from the
 * session is escaped.
 */
import { clip, formatMs } from '../progress/format.js'
import { colorOf } from './colors.js'
import type { Bar, Layout } from './layout.js'
import type { Trace, TraceCall } from './read.js'

/** What the page says about where the trace came from. */
export interface PageInfo {
  /** The session file, as shown in the title. */
  source: string
}

/** The whole HTML page. */
export function renderTrace(trace: Trace, layout: Layout, info: PageInfo): string {
  const calls = trace.turns.reduce((n, t) => n + t.calls.length, 0)
  const clock = trace.timed ? 'times from the session clock' : 'no times in the session: laid out by entry order (unit steps)'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>rein trace — ${esc(info.source)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>rein trace</h1>
<p class="meta">${esc(info.source)} · ${trace.turns.length} batch${trace.turns.length === 1 ? '' : 'es'} · ${calls} call${calls === 1 ? '' : 's'} · ${esc(clock)}</p>
</header>
${legend(layout)}
<div class="chart">
${svg(layout)}
</div>
${table(layout)}
</body>
</html>
`
}

function legend(layout: Layout): string {
  const swatches = layout.outcomes.map((o) => `<li><span class="swatch" style="background:${colorOf(o)}"></span>${esc(o)}</li>`)
  if (layout.bars.some(waited)) swatches.push('<li><span class="wait-swatch"></span>waiting: from start to final result (queue, approval, post-execute turn)</li>')
  return `<ul class="legend">
${swatches.join('\n')}
<li><span class="swatch group-swatch"></span>ran together (parallel group)</li>
<li><span class="swatch barrier-swatch"></span>barrier (exclusive call)</li>
<li><span class="dep-swatch">⟶</span>depends on (reference to a result)</li>
</ul>`
}

function svg(layout: Layout): string {
  const height = layout.height + 8
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${r(layout.width)}" height="${r(height)}" viewBox="0 0 ${r(layout.width)} ${r(height)}" role="img" aria-label="timeline of tool calls">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1c7ed6"/></marker></defs>',
  ]
  layout.turns.forEach((turn, i) => {
    parts.push(`<g class="turn" data-turn="${turn.turn}">`)
    parts.push(`<rect class="band${i % 2 ? ' odd' : ''}" x="0" y="${r(turn.y)}" width="${r(layout.width)}" height="${r(turn.height)}"/>`)
    const span = layout.unit === 'ms' ? formatMs(turn.span) : `${turn.span} steps`
    const head = `turn ${turn.turn} · ${turn.calls} call${turn.calls === 1 ? '' : 's'} · ${span}${turn.outcome ? ` · ${turn.outcome}` : ''}`
    parts.push(`<text class="turn-head" x="8" y="${r(turn.y + 19)}">${esc(head)}<tspan class="said" dx="10">${esc(clip(turn.text, 110))}</tspan></text>`)
    parts.push(`<line class="axis" x1="${r(turn.x)}" x2="${r(turn.x + turn.width)}" y1="${r(turn.y + 26)}" y2="${r(turn.y + 26)}"/>`)
    parts.push(`<line class="sep" x1="${r(turn.x)}" x2="${r(turn.x)}" y1="${r(turn.y + 22)}" y2="${r(turn.y + turn.height)}"/>`)
    parts.push('</g>')
  })
  for (const g of layout.groups) {
    parts.push(`<rect class="group" x="${r(g.x)}" y="${r(g.y)}" width="${r(g.width)}" height="${r(g.height)}" rx="4"><title>${esc(`ran together: ${g.ids.join(', ')}`)}</title></rect>`)
  }
  for (const b of layout.barriers) {
    parts.push(`<g class="barrier"><title>${esc(`${b.id} is exclusive: it waited for every earlier call and held back every later one`)}</title>` +
      `<line x1="${r(b.x1)}" x2="${r(b.x1)}" y1="${r(b.y)}" y2="${r(b.y + b.height)}"/>` +
      `<line x1="${r(b.x2)}" x2="${r(b.x2)}" y1="${r(b.y)}" y2="${r(b.y + b.height)}"/></g>`)
  }
  for (const bar of layout.bars) parts.push(barSvg(bar, layout))
  for (const a of layout.arrows) {
    const mid = Math.max(a.x1 + 12, (a.x1 + a.x2) / 2)
    parts.push(`<path class="dep" d="M${r(a.x1)},${r(a.y1)} C${r(mid)},${r(a.y1)} ${r(mid)},${r(a.y2)} ${r(a.x2)},${r(a.y2)}" marker-end="url(#arrow)"><title>${esc(`${a.to} depends on ${a.from}`)}</title></path>`)
  }
  parts.push('</svg>')
  return parts.join('\n')
}

function barSvg(bar: Bar, layout: Layout): string {
  const c = bar.call
  const label = `${c.id}  ${c.name}`
  const all = bar.wait.end - bar.wait.start
  const whole = waited(bar) && all >= 1.2 * (bar.end - bar.start) ? ` (${formatMs(all)} in all)` : ''
  const duration = layout.unit === 'ms' ? `${formatMs(bar.end - bar.start)}${whole}` : ''
  const textY = r(bar.y + bar.height - 4)
  const middle = r(bar.y + bar.height / 2)
  return [
    `<text class="row-label" x="12" y="${textY}">${esc(clip(label, 30))}</text>`,
    waited(bar) ? `<line class="wait" data-id="${esc(c.id)}" x1="${r(bar.wait.x1)}" x2="${r(bar.wait.x2)}" y1="${middle}" y2="${middle}"/>` : '',
    `<rect class="bar${c.outcome === 'no result' ? ' open' : ''}" data-id="${esc(c.id)}" data-outcome="${esc(c.outcome)}" x="${r(bar.x)}" y="${r(bar.y)}" width="${r(bar.width)}" height="${r(bar.height)}" rx="2" fill="${colorOf(c.outcome)}"><title>${esc(hover(c, bar, layout))}</title></rect>`,
    `<text class="dur" x="${r(Math.max(bar.x + bar.width, bar.wait.x2) + 4)}" y="${textY}">${esc(barNote(c, duration))}</text>`,
  ].join('')
}

/** Whether the call's start to final result reaches visibly beyond its bar. */
function waited(bar: Bar): boolean {
  return bar.wait.x1 < bar.x - 0.5 || bar.wait.x2 > bar.x + bar.width + 0.5
}

/** The text after a bar: its run's duration (and start to result, when notably longer), outcome when not ok, the plugins' facts. */
function barNote(c: TraceCall, duration: string): string {
  return [duration, c.outcome === 'ok' ? '' : c.outcome, factLine(c.meta, true)].filter(Boolean).join(' · ')
}

/** The hover text of a bar. */
export function hover(c: TraceCall, bar: Bar, layout: Layout): string {
  const lines = [`${c.id} ${c.name} — ${c.outcome}`]
  if (layout.unit === 'ms') lines.push(`${formatMs(bar.end - bar.start)}, started at +${formatMs(bar.start)} in turn ${c.turn}`)
  if (layout.unit === 'ms' && (bar.wait.start !== bar.start || bar.wait.end !== bar.end)) {
    const { start, end } = bar.wait
    lines.push(`${formatMs(end - start)} from start (+${formatMs(start)}) to final result (+${formatMs(end)})`)
  }
  if (c.mode) lines.push(c.mode === 'parallel' ? 'parallel' : 'exclusive (a barrier)')
  const facts = factLine(c.meta)
  if (facts) lines.push(facts)
  if (c.deps.length) lines.push(`depends on ${c.deps.join(', ')}`)
  lines.push(`arguments: ${clip(json(c.started ? c.arguments : c.requested), 400)}`)
  if (c.started && json(c.requested) !== json(c.arguments)) lines.push(`as asked: ${clip(json(c.requested), 200)}`)
  lines.push(`result: ${clip(c.preview.replace(/\s+/g, ' '), 300) || '(none)'}`)
  return lines.join('\n')
}

function factLine(meta: Record<string, unknown> | undefined, short = false): string {
  if (!meta) return ''
  const facts: string[] = []
  if (typeof meta.attempts === 'number' && meta.attempts > 1) facts.push(short ? `${meta.attempts} attempts` : `${meta.attempts} attempts (retried)`)
  if (meta.cacheHit === true) facts.push('cache hit')
  const spilled = meta.spilled as { bytes?: unknown } | undefined
  if (spilled && typeof spilled.bytes === 'number') facts.push(short ? 'spilled' : `spilled ${spilled.bytes} bytes`)
  return facts.join(' · ')
}

function table(layout: Layout): string {
  const rows = layout.bars.map(({ call: c, start, end, wait }) => `<tr class="o-${esc(c.outcome.replace(/\W/g, '_'))}">` +
    `<td>${c.turn}</td><td>${esc(c.id)}</td><td>${esc(c.name)}</td>` +
    `<td><span class="swatch" style="background:${colorOf(c.outcome)}"></span>${esc(c.outcome)}</td>` +
    `<td class="num">${layout.unit === 'ms' ? esc(formatMs(end - start)) : ''}</td>` +
    `<td class="num">${layout.unit === 'ms' ? esc(formatMs(wait.end - wait.start)) : ''}</td>` +
    `<td>${esc(c.mode ?? '')}</td><td>${esc(c.deps.join(', '))}</td>` +
    `<td><code>${esc(clip(json(c.started ? c.arguments : c.requested), 160))}</code></td>` +
    `<td>${esc(clip(c.preview.replace(/\s+/g, ' '), 160))}</td></tr>`)
  return `<table>
<thead><tr><th>turn</th><th>id</th><th>tool</th><th>outcome</th><th>ran</th><th>start → final</th><th>mode</th><th>depends on</th><th>arguments</th><th>result</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
}

function json(value: unknown): string {
  if (value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value) ?? ''
}

const r = (n: number) => String(Math.round(n * 10) / 10)

/** Escapes text for HTML and SVG content and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)
}

const CSS = `
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #212529; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
.meta { color: #495057; margin: 0 0 12px; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 18px; padding: 0; margin: 0 0 12px; }
.legend li { display: flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 2px; border: 1px solid #0002; margin-right: 4px; vertical-align: -2px; }
.group-swatch { background: #e7f5ff; border: 1px dashed #74c0fc; }
.barrier-swatch { background: #fff; border: 0; border-left: 2px dashed #e8590c; border-right: 2px dashed #e8590c; }
.dep-swatch { color: #1c7ed6; font-weight: bold; }
.chart { overflow-x: auto; border: 1px solid #dee2e6; border-radius: 6px; }
svg { display: block; font: 12px system-ui, sans-serif; }
.band { fill: #fff; } .band.odd { fill: #f8f9fa; }
.turn-head { font-weight: 600; fill: #343a40; } .said { font-weight: normal; fill: #868e96; font-style: italic; }
.axis { stroke: #ced4da; } .sep { stroke: #adb5bd; stroke-dasharray: 2 3; }
.row-label { fill: #343a40; font-family: ui-monospace, Menlo, Consolas, monospace; }
.group { fill: #e7f5ff; stroke: #74c0fc; stroke-dasharray: 4 3; }
.barrier line { stroke: #e8590c; stroke-width: 1.5; stroke-dasharray: 5 3; }
.wait { stroke: #868e96; stroke-width: 1.5; }
.wait-swatch { display: inline-block; width: 18px; height: 0; border-top: 2px solid #868e96; margin-right: 4px; vertical-align: 3px; }
.bar { stroke: #0003; } .bar.open { stroke: #495057; stroke-dasharray: 3 2; }
.dur { fill: #495057; font-size: 11px; }
.dep { fill: none; stroke: #1c7ed6; stroke-width: 1.5; }
table { border-collapse: collapse; margin-top: 16px; font-size: 13px; }
th, td { border-bottom: 1px solid #dee2e6; padding: 4px 8px; text-align: left; vertical-align: top; }
td.num { text-align: right; white-space: nowrap; }
code { font-size: 12px; word-break: break-all; }
`
