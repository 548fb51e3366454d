/**
 * `rein mcp serve` over stdio: one MCP session on this process's stdin and stdout, served until
 * stdin ends. The protocol must be the only thing on stdout, so `protocolStdout()` keeps the
 * real stream for the transport and sends every other write to stdout (console.log, a plugin's
 * print, cordis' logger) to stderr.
 */
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Context } from 'cordis'
import { Logger } from 'cordis'
import { createMcpHost, type McpHostOptions } from './host.js'

/** A stream the transport writes to: what it needs of `process.stdout`. */
type ProtocolOut = ConstructorParameters<typeof StdioServerTransport>[1]

/**
 * Keeps process.stdout for the protocol: returns a stream that writes to the real stdout, and
 * from then on sends every other write to process.stdout, and every cordis log line, to
 * stderr. For a process that serves MCP over stdio; call it before anything else prints.
 */
export function protocolStdout(): NonNullable<ProtocolOut> {
  const stdout = process.stdout
  const write = stdout.write.bind(stdout)
  stdout.write = ((chunk: never, ...rest: never[]) => process.stderr.write(chunk, ...rest)) as typeof stdout.write
  logsToStderr()
  return new Proxy(stdout, {
    get: (target, key) => (key === 'write' ? write : Reflect.get(target, key, target)),
  })
}

/** Sends cordis' log lines (which it prints to stdout by default) to stderr, for every logger of this process. */
export function logsToStderr(): void {
  const colors = process.stderr.isTTY && !process.env.NO_COLOR ? 1 : 0
  Logger.targets.splice(0, Logger.targets.length, { colors, print: (text: string) => { process.stderr.write(`${text}\n`) } } as never)
}

/** Options of `serveStdio`: the streams (default: this process's), and a signal that stops serving. */
export interface StdioOptions extends McpHostOptions {
  stdin?: Readable
  stdout?: ProtocolOut
  signal?: AbortSignal
}

/** Serves `ctx`'s tools over stdio until `stdin` ends (or `signal` aborts); resolves then, with everything closed. */
export async function serveStdio(ctx: Context, options: StdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin
  const host = createMcpHost(ctx, options)
  const session = host.open(`stdio-${randomUUID()}`)
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout)
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve)
    stdin.once('close', resolve)
    transport.onclose = () => resolve()
    if (options.signal?.aborted) resolve()
    options.signal?.addEventListener('abort', () => resolve(), { once: true })
  })
  await session.server.connect(transport)
  await ended
  await host.dispose()
}
