/** How the reader tests see a line: the commands it reads as, one string each. */
import { parseBash } from '../src/parser.js'
import { readCommandLine } from '../src/read.js'

/** The commands a line reads as, `?` before a name known only at run time, `=` when it assigns. */
export function reads(line: string): string[] {
  const reading = readCommandLine(line, parseBash)
  if (!reading.ok) throw new Error(reading.reason)
  return reading.commands.map((c) => `${c.known ? '' : '?'}${c.assigns ? '=' : ''}${c.words.join(' ')}`)
}

/** The line, and the commands after its own first one: what its program runs. */
export const runs = (line: string) => [line, reads(line).slice(1)]

/** The line, and whether it reads as something known only at run time. */
export const unknown = (line: string) => [line, reads(line).some((c) => c.startsWith('?'))]
