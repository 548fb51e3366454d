/**
 * `rein mcp serve`: the harness's tools — its own and those of the MCP servers its `tools:`
 * name — served to any MCP client, over stdio (the default) or Streamable HTTP (`--http`).
 * Every call runs through the harness's plugins; each MCP session is its own rein session. No
 * model is asked, so the file's provider is not loaded. Under stdio, stdout carries only the
 * protocol: every other line, logs included, goes to stderr. Ctrl-C or SIGTERM (or, under
 * stdio, the end of stdin) stops serving and disposes the harness.
 */
import { dirname, join, resolve } from 'node:path'
import { stringOption, UsageError, type Command, type Parsed } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { reportWarnings } from '../failures.js'
import { println } from '../io.js'
import { NO_MODEL } from './chains.js'

const USAGE = 'rein mcp serve [-c rein.yaml] [--http <host:port> [--allow-host <host>]... [--allow-origin <origin>]... [--allow-remote]] [--sessions <dir>] [--keep-sessions <days>]'

/** How long a session file that a killed server left behind is kept, by default (days). */
const KEEP_DAYS = 7

export const mcp: Command = {
  name: 'mcp',
  summary: "serve the harness's tools to any MCP client, every call through its plugins",
  usage: USAGE,
  help: `
rein mcp serve runs an MCP server offering the tools of the config file's harness — its own
tools and those of the MCP servers its tools: name — to any MCP client (Claude Desktop, Claude
Code, Cursor...). Every tools/call runs through the harness's plugins: permissions (a tool
denied whatever its arguments is not listed; an ask becomes a question to the client's user
when the client supports elicitation, else a refusal), timeouts, retries, cache, spill, audit.
Each MCP session is its own rein session. The file needs no provider: no model is asked.

With "agent: { approvals: park }" in the file, an ask that the client cannot answer (it does
not support elicitation) is refused naming a request recorded in the MCP session's own session
file, <sessions dir>/<MCP session id>.jsonl; answer it with
"rein approve <id> --session <that file>" and call the tool again with the same arguments.
"allow for the session" answers are kept per MCP session, never shared between sessions.
A session's file is removed when the session ends (the client closes it, or the server
stops): only a call made again in that same session can meet an answer.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml)
  --http <host:port>   serve Streamable HTTP at http://<host:port>/mcp instead of stdio
                       (e.g. 127.0.0.1:3333; port 0 picks a free one, printed on stderr).
                       A request whose Host header is not localhost, a loopback address or
                       the bound one (with this port), or whose Origin header is not an
                       http(s) origin of such a host, is refused (403): DNS rebinding
                       protection. At most 100 sessions; one idle for 15 minutes is closed.
  --allow-host <host>  also answer this Host header: <name> (any port) or <name:port>;
                       repeatable (e.g. the name a proxy in front of rein is reached by)
  --allow-origin <origin>
                       also accept this Origin header, e.g. http://localhost:5173; repeatable
  --allow-remote       serve --http on an address that is not loopback (0.0.0.0, a LAN
                       address): there is no authentication, so anyone who can reach it can
                       call every tool; without this flag such an address is refused
  --sessions <dir>     keep each MCP session's facts (its approval requests and answers, its
                       plugins' state) in <dir>/<MCP session id>.jsonl (default, with
                       approvals: park, .rein/mcp-sessions beside the file; else in memory)
  --keep-sessions <days>
                       at start, remove the session files that nothing wrote for this many
                       days (default ${KEEP_DAYS}): those a server that was killed left behind

Over stdio, stdout carries only the protocol; logs and warnings go to stderr.`,
  options: {
    config: { type: 'string', short: 'c' }, http: { type: 'string' }, sessions: { type: 'string' }, 'keep-sessions': { type: 'string' },
    'allow-host': { type: 'string', multiple: true }, 'allow-origin': { type: 'string', multiple: true }, 'allow-remote': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    const sub = args.positionals[0]
    if (sub !== 'serve') throw new UsageError(`rein mcp: unknown subcommand "${sub}"; usage: ${USAGE}`)
    const serve = await import('@rein/mcp/serve')
    const http = stringOption(args, 'http')
    let address: { host: string, port: number } | undefined
    try {
      address = http === undefined ? undefined : serve.parseHostPort(http)
    } catch (error) {
      throw new UsageError(`rein mcp: ${(error as Error).message}`)
    }
    const allowedHosts = listOption(args, 'allow-host')
    const allowedOrigins = listOption(args, 'allow-origin')
    const allowRemote = args.values['allow-remote'] === true
    if (!address && (allowedHosts.length > 0 || allowedOrigins.length > 0 || allowRemote)) {
      throw new UsageError('rein mcp: --allow-host, --allow-origin and --allow-remote go with --http')
    }
    if (address && !allowRemote && !serve.isLoopback(address.host)) {
      throw new UsageError(`rein mcp: --http ${http}: ${address.host} is not a loopback address, and the server has no authentication: ` +
        'anyone who can reach it could call every tool. Serve on 127.0.0.1, or add --allow-remote (behind something that authenticates)')
    }
    try {
      if (address) serve.requestCheck(address.host, address.port, { allowedHosts, allowedOrigins })
    } catch (error) {
      throw new UsageError(`rein mcp: ${(error as Error).message}`)
    }
    const keepDays = Number(stringOption(args, 'keep-sessions', String(KEEP_DAYS)))
    if (!(keepDays > 0)) throw new UsageError('rein mcp: --keep-sessions must be a number of days above 0')
    // Before anything can print: over stdio, stdout is the protocol's alone.
    const stdout = address ? undefined : serve.protocolStdout()
    serve.logsToStderr()
    const { loadHarness } = await import('@rein/loader')
    const file = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    const harness = await loadHarness(file, { provider: NO_MODEL, env: io.env, inspectOnly: true })
    const hostOptions = await sessionOptions(harness.config.agent, stringOption(args, 'sessions'), file, io.cwd, keepDays)
    const stop = new AbortController()
    const onSignal = () => stop.abort()
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
    try {
      reportWarnings(harness.warnings, io, 'mcp')
      if (!address) {
        await serve.serveStdio(harness.ctx, { ...hostOptions, stdout, signal: stop.signal })
        return ExitCodes.OK
      }
      const serving = await serve.serveHttp(harness.ctx, address, { ...hostOptions, allowedHosts, allowedOrigins, allowRemote })
      println(io.stderr, `rein mcp: serving ${harness.ctx.tools.specs().length} tools at ${serving.url} (Ctrl-C stops)`)
      await new Promise((done) => stop.signal.addEventListener('abort', done, { once: true }))
      await serving.close()
      return ExitCodes.OK
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      await harness.dispose()
    }
  },
}

/** The values of a repeatable string option (none: an empty list). */
function listOption(args: Parsed, name: string): string[] {
  const value = args.values[name] as unknown
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []
}

/**
 * Where each MCP session keeps its facts, and how an ask nobody can answer is treated: the file's
 * `agent.approvals` and `approvalExpiresAfterMs`, and a JSONL file per MCP session under `--sessions`
 * (default under `approvals: park`: `.rein/mcp-sessions` beside the harness file), removed when its
 * session ends, else a store in memory. The files that nothing wrote for `keepDays` are removed now.
 */
async function sessionOptions(agent: { approvals?: 'ask' | 'park', approvalExpiresAfterMs?: number } | undefined,
  sessions: string | undefined, file: string, cwd: string, keepDays: number) {
  const approvals = agent?.approvals ?? 'ask'
  const dir = sessions !== undefined ? resolve(cwd, sessions) : approvals === 'park' ? join(dirname(file), '.rein', 'mcp-sessions') : undefined
  if (dir === undefined) return { approvals }
  const { sessionFiles } = await import('@rein/mcp/serve')
  const files = sessionFiles(dir)
  await files.removeStale(keepDays * 86_400_000)
  return {
    approvals,
    ...(agent?.approvalExpiresAfterMs === undefined ? {} : { approvalExpiresAfterMs: agent.approvalExpiresAfterMs }),
    sessionStore: files.sessionStore,
    sessionEnded: files.sessionEnded,
  }
}
