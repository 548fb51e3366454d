/**
 * `rein trace <session.jsonl>`: a timeline picture of a run's calls, as a self-contained
 * HTML page with an SVG (one row per call, bars coloured by outcome, parallel groups,
 * barriers, dependency arrows, hover for arguments and result). Reads the session only.
 */
import { statSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { stringOption, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { println } from '../io.js'

export const trace: Command = {
  name: 'trace',
  summary: "draw a session's tool calls as a timeline (self-contained HTML with SVG)",
  usage: 'rein trace <session.jsonl> [-o trace.html]',
  help: `
Reads a session JSONL (from rein run or rein demo) and writes one HTML page with no external
assets and no scripts: an SVG timeline with one row per tool call, a bar from its start to
its end coloured by outcome (legend at the top), batches separated, calls that ran together
boxed as a group, exclusive calls marked as barriers, arrows where a call's arguments
referenced another call's result, and a hover text with the arguments and a result preview.
Sessions without timestamps are laid out by entry order.

Options:
  -o, --output <file>  where to write the page (default: the session path with .html)`,
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    const source = resolve(io.cwd, args.positionals[0]!)
    const output = resolve(io.cwd, stringOption(args, 'output', source.replace(/\.jsonl$/i, '') + '.html'))
    if (sameFile(output, source)) {
      println(io.stderr, `rein trace: the page would overwrite the session ${relative(io.cwd, source) || source}; give -o another file`)
      return ExitCodes.USAGE
    }
    const [{ readTraceFile }, { layoutTrace }, { renderTrace }] =
      await Promise.all([import('../trace/read.js'), import('../trace/layout.js'), import('../trace/render.js')])
    let session
    try {
      session = await readTraceFile(source)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      println(io.stderr, `rein trace: no session file at ${source}; rein run writes one when rein.yaml has "session:" (or pass --session), rein demo writes ${'.rein/demo-session.jsonl'}`)
      return ExitCodes.FAILURE
    }
    const calls = session.turns.reduce((n, t) => n + t.calls.length, 0)
    const page = renderTrace(session, layoutTrace(session), { source: relative(io.cwd, source) || source })
    await writeFile(output, page)
    println(io.stdout, `wrote ${relative(io.cwd, output) || output}: ${calls} call${calls === 1 ? '' : 's'} in ${session.turns.length} batch${session.turns.length === 1 ? '' : 'es'}` +
      (session.timed ? '' : ' (no timestamps in the session: laid out by entry order)'))
    return ExitCodes.OK
  },
}

/** Whether two paths name one file (the same path, or links to one file that exists). */
function sameFile(a: string, b: string): boolean {
  if (a === b) return true
  const [x, y] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })]
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino
}
