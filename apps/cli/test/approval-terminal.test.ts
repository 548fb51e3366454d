/** The terminal asker's pieces: what an answer means, and how a request is shown. */
import type { ToolExec } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { argumentLines, describeRequest, parseAnswer } from '../src/approval/terminal.js'
import { createStyle } from '../src/progress/style.js'

describe('parseAnswer', () => {
  it('reads y / s / n in any case, an empty line as deny, and anything else as not understood', () => {
    expect(['y', ' Yes ', 's', 'SESSION', 'n', 'no', '', '  '].map((line) => parseAnswer(line)))
      .toEqual(['allow-once', 'allow-once', 'allow-session', 'allow-session', 'deny', 'deny', 'deny', 'deny'])
    expect(['yy', 'ok', 'allow', 'q'].map((line) => parseAnswer(line))).toEqual([undefined, undefined, undefined, undefined])
  })

  it('reads l / later as "decide later" (park) only where the call can wait in a kept session', () => {
    expect(['l', ' Later '].map((line) => parseAnswer(line, true))).toEqual(['park', 'park'])
    expect(['l', 'later'].map((line) => parseAnswer(line))).toEqual([undefined, undefined])
    expect(parseAnswer('y', true)).toBe('allow-once')
  })
})

describe('describeRequest', () => {
  const exec = (args: Record<string, unknown>) => ({ id: 'c7', name: 'bash', arguments: args }) as unknown as ToolExec

  it('names the tool, the call and the reason, then the arguments as indented JSON', () => {
    expect(describeRequest({ exec: exec({ command: 'ls' }), reason: 'shell needs a person' }, createStyle(false), 80))
      .toBe('? "bash" (call c7) needs approval: shell needs a person\n    {\n      "command": "ls"\n    }\n')
  })

  it('cuts long arguments to a few lines, each no wider than the terminal', () => {
    const text = describeRequest({ exec: exec({ a: 'x'.repeat(200), b: 1, c: 2, d: 3, e: 4, f: 5, g: 6, h: 7, i: 8 }) }, createStyle(false), 50)
    const lines = text.trimEnd().split('\n')
    expect(lines[0]).toBe('? "bash" (call c7) needs approval')
    expect(lines).toHaveLength(1 + 8)
    expect(lines.at(-1)).toBe('    … (4 more lines)')
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(50)
  })

  it('keeps short argument lists whole', () => {
    expect(argumentLines({}, 8)).toEqual(['{}'])
    expect(argumentLines([1, 2], 4)).toEqual(['[', '  1,', '  2', ']'])
  })
})
