/**
 * Under `rein hook`, stdout carries the JSON answer and nothing else: Claude Code parses it
 * whole. When the command writes to the real process.stdout, every other write to it (a
 * plugin's `console.log` at apply or in a handler, a library's print) goes to stderr from then
 * until the process exits, and only the stream returned here reaches stdout.
 */
import type { Output } from '../io.js'

/**
 * The stream the hook's answer goes to. For the real process.stdout, that stream is kept for
 * the answer and process.stdout's other writers are sent to stderr; any other output (a test's
 * capture, the resident's) is returned as it is. `rein mcp serve` does the same with
 * `protocolStdout()` of `@rein/mcp`; the hook has its own because importing `@rein/mcp` (the
 * MCP SDK, cordis) would add to the start-up Claude Code pays on every tool call.
 */
export function answerStdout(out: Output): Output {
  const stdout = process.stdout
  if (out !== stdout) return out
  const write = stdout.write.bind(stdout)
  stdout.write = ((chunk: never, ...rest: never[]) => process.stderr.write(chunk, ...rest)) as typeof stdout.write
  return { write: (chunk: string) => write(chunk) }
}
